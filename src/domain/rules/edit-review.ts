/**
 * The review of an edit refused because someone else saved the post meanwhile: field by field,
 * what the visitor changed against the version they started from (`base`), and what the other
 * save changed against it (`theirs`).
 */
export interface EditReview<Field extends string> {
  /**
   * What the form shows: the newer stored text where the visitor left a field alone, the
   * visitor's text elsewhere (where both changed a field, until the visitor chooses).
   */
  readonly values: Record<Field, string>
  /** The fields both changed, to different texts: the visitor chooses which to keep. */
  readonly bothChanged: readonly Field[]
  /** The fields only the other save changed: the form took their text. */
  readonly theirsTaken: readonly Field[]
}

/**
 * Reviews `mine` against `theirs`. Without `base` (a draft kept before the version it was
 * started from was remembered), every field where the two differ counts as changed by both.
 */
export function reviewEdit<Field extends string>(
  fields: readonly Field[],
  mine: Readonly<Record<Field, string>>,
  theirs: Readonly<Record<Field, string>>,
  base?: Readonly<Record<Field, string>>,
): EditReview<Field> {
  const values: Record<Field, string> = { ...mine }
  const bothChanged: Field[] = []
  const theirsTaken: Field[] = []
  for (const field of fields) {
    if (mine[field] === theirs[field]) continue
    if (base !== undefined && mine[field] === base[field]) {
      values[field] = theirs[field]
      theirsTaken.push(field)
    } else if (base === undefined || theirs[field] !== base[field]) {
      bothChanged.push(field)
    }
  }
  return { values, bothChanged, theirsTaken }
}
