/** The start of a text, cut at a word boundary, with an ellipsis when anything was cut. */
export function excerpt(text: string, maxCharacters = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  // Characters are code points, as Array.from counts them; the text is measured only as far as
  // the cut, however long it is.
  const end = indexAfter(flat, maxCharacters)
  if (end === flat.length) return flat
  const head = flat.slice(0, indexAfter(flat, maxCharacters + 1))
  const lastSpace = head.lastIndexOf(' ')
  const cut = lastSpace > 0 ? head.slice(0, lastSpace) : flat.slice(0, end)
  return `${cut.replace(/[\s.,;:!?-]+$/, '')}…`
}

/** Where the first `count` code points of `text` end, in UTF-16 units (its length if it has fewer). */
function indexAfter(text: string, count: number): number {
  let index = 0
  for (let n = 0; n < count && index < text.length; n += 1) {
    const unit = text.charCodeAt(index)
    const pair = unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))
    index += pair ? 2 : 1
  }
  return index
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff
}
