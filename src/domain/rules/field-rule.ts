/**
 * A field's rule as data, so that the forms (through yup), the use cases and the
 * server all check the same thing and show the same message.
 */
export interface FieldRule {
  readonly required: string
  readonly maxLength: { readonly limit: number; readonly message: string }
  readonly email?: string
}

export type FieldErrors<Field extends string> = Partial<Record<Field, string>>

export type RuleSet<Field extends string> = Readonly<Record<Field, FieldRule>>

const graphemes =
  typeof Intl !== 'undefined' && 'Segmenter' in Intl
    ? new Intl.Segmenter(undefined, { granularity: 'grapheme' })
    : undefined

/** Counts what a reader sees as characters: an emoji, even one built of several code points, is one. */
export function characterCount(text: string): number {
  if (graphemes === undefined) return [...text].length
  let count = 0
  for (const _ of graphemes.segment(text)) count += 1
  return count
}

// The WHATWG form's address syntax, with at least one dot in the domain part.
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/

/** The first message the value breaks, or undefined when it keeps the rule. */
export function checkField(rule: FieldRule, value: unknown): string | undefined {
  const text = typeof value === 'string' ? value.trim() : ''
  if (text.length === 0) return rule.required
  // Length before pattern, so that the pattern never runs on unbounded input.
  if (characterCount(text) > rule.maxLength.limit) return rule.maxLength.message
  if (rule.email !== undefined && !EMAIL_PATTERN.test(text)) return rule.email
  return undefined
}

/** Checks the named fields of `input` (all of them unless `only` is given). */
export function checkFields<Field extends string>(
  rules: RuleSet<Field>,
  input: Partial<Record<Field, unknown>>,
  only: readonly Field[] = Object.keys(rules) as Field[],
): FieldErrors<Field> {
  const errors: FieldErrors<Field> = {}
  for (const field of only) {
    const message = checkField(rules[field], input[field])
    if (message !== undefined) errors[field] = message
  }
  return errors
}

/** The spec's wording for most length limits. */
export const mustBeAtMost = (limit: number): string => `Must be ${limit} characters or less`

export function hasErrors(errors: FieldErrors<string>): boolean {
  return Object.keys(errors).length > 0
}
