/** The start of a text, cut at a word boundary, with an ellipsis when anything was cut. */
export function excerpt(text: string, maxCharacters = 160): string {
  return excerptOfFlat(flatStart(text, maxCharacters), maxCharacters)
}

/** A text on one line: each run of white space one space, none at either end. */
export function flatText(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/**
 * The excerpt of a text already flat (flatText): the same as excerpt's, without going over the
 * text again.
 */
export function excerptOfFlat(flat: string, maxCharacters = 160): string {
  // Characters are code points, as Array.from counts them; the text is measured only as far as
  // the cut, however long it is.
  const end = indexAfter(flat, maxCharacters)
  if (end === flat.length) return flat
  const head = flat.slice(0, indexAfter(flat, maxCharacters + 1))
  const lastSpace = head.lastIndexOf(' ')
  const cut = lastSpace > 0 ? head.slice(0, lastSpace) : flat.slice(0, end)
  return `${cut.replace(/[\s.,;:!?-]+$/, '')}…`
}

/**
 * flatText(text), or a start of it long enough for an excerpt of `maxCharacters`: a long body is
 * made flat only as far as its excerpt reads. The start is made flat from a start of the text,
 * longer each time it falls short; its last character can differ from the whole's (a space the
 * whole trims, half of a pair), so it is long enough with two code points past the excerpt's.
 */
function flatStart(text: string, maxCharacters: number): string {
  for (let size = 4 * (maxCharacters + 3); size < text.length; size *= 4) {
    const start = text.slice(0, size).replace(/\s+/g, ' ').trimStart()
    if (indexAfter(start, maxCharacters + 2) < start.length) return start
  }
  return flatText(text)
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
