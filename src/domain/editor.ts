/**
 * Who made a change: the pseudonym of the client address it came from (a keyed hash, never the
 * address), or OPERATOR for the operator's commands. Revisions made before changes were
 * attributed carry UNKNOWN_EDITOR.
 */
export type Editor = string

/** The editor of every change made with `npm run news`. */
export const OPERATOR: Editor = 'operator'

/** The editor of revisions recorded before the site attributed changes. */
export const UNKNOWN_EDITOR: Editor = 'unknown'

/** Hex digits of a client's pseudonym (40 bits), as server/pseudonyms.ts cuts them. */
export const PSEUDONYM_LENGTH = 10

const PSEUDONYM = new RegExp(`^[0-9a-f]{${PSEUDONYM_LENGTH}}$`)

/** A name an editor may have: a client's pseudonym, OPERATOR or UNKNOWN_EDITOR. */
export function isEditor(value: string): value is Editor {
  return PSEUDONYM.test(value) || value === OPERATOR || value === UNKNOWN_EDITOR
}

/** Why a name is refused where an editor is asked for (isEditor). */
export const INVALID_EDITOR_MESSAGE = `Must be a visitor’s pseudonym (${PSEUDONYM_LENGTH} hex digits), ${OPERATOR} or ${UNKNOWN_EDITOR}`

/** Whether the editor is a client's pseudonym (one that a block can name). */
export function isPseudonym(value: string): boolean {
  return PSEUDONYM.test(value)
}

/**
 * How the history names an editor: 'Visitor 3f9a2c0d1e' by the pseudonym the operator's
 * `news who ADDRESS` prints, 'the operator', or, for a change made before the site recorded
 * editors, 'a visitor (not recorded)'.
 */
export function editorName(editor: Editor): string {
  if (editor === OPERATOR) return 'the operator'
  return isPseudonym(editor) ? `Visitor ${editor}` : 'a visitor (not recorded)'
}
