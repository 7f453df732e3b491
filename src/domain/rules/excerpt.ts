/** The start of a text, cut at a word boundary, with an ellipsis when anything was cut. */
export function excerpt(text: string, maxCharacters = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const characters = Array.from(flat)
  if (characters.length <= maxCharacters) return flat
  const head = characters.slice(0, maxCharacters + 1).join('')
  const lastSpace = head.lastIndexOf(' ')
  const cut = lastSpace > 0 ? head.slice(0, lastSpace) : characters.slice(0, maxCharacters).join('')
  return `${cut.replace(/[\s.,;:!?-]+$/, '')}…`
}
