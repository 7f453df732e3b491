import { exceedsCharacters } from '@/domain/rules/character-count'

/**
 * A field's rule as data, so that the forms (through yup), the use cases and the
 * server all check the same thing and show the same message.
 */
export interface FieldRule {
  readonly required: string
  readonly maxLength: { readonly limit: number; readonly message: string }
  readonly characters: CharacterRule
  readonly email?: string
}

/**
 * Which characters a text may hold. A one-line field refuses every control character; a field of
 * several lines lets tab, line feed and carriage return through (see docs/spec-deviations.md).
 */
export interface CharacterRule {
  readonly lines: 'one' | 'many'
  readonly message: string
}

export type FieldErrors<Field extends string> = Partial<Record<Field, string>>

export type RuleSet<Field extends string> = Readonly<Record<Field, FieldRule>>

/*
 * Refused everywhere: C0 controls, DEL and C1 controls, and the bidi embeddings and overrides
 * (LRE, RLE, PDF, LRO, RLO), whose effect leaks past the field when left open; the isolates and
 * the marks, which right-to-left text needs, stay. A one-line field also refuses tab, the line
 * breaks and the Unicode line and paragraph separators.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const REFUSED_IN_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/
// eslint-disable-next-line no-control-regex -- as above, less tab, line feed and carriage return
const REFUSED_IN_MANY_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e]/

/** Whether `text` holds a character the rule refuses. */
function hasRefusedCharacter(rule: CharacterRule, text: string): boolean {
  return (rule.lines === 'one' ? REFUSED_IN_ONE_LINE : REFUSED_IN_MANY_LINES).test(text)
}

// The WHATWG form's address syntax, with at least one dot in the domain part.
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/

/** The first message the value breaks, or undefined when it keeps the rule. */
export function checkField(rule: FieldRule, value: unknown): string | undefined {
  const text = typeof value === 'string' ? value.trim() : ''
  if (text.length === 0) return rule.required
  // Length before pattern, so that the pattern never runs on unbounded input; the length is
  // judged by code units first, so that only a text near its limit is counted (character-count.ts).
  if (exceedsCharacters(text, rule.maxLength.limit)) return rule.maxLength.message
  if (hasRefusedCharacter(rule.characters, text)) return rule.characters.message
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

/** Worded like the spec's 'Sorry, title is required'. */
export const noControlCharacters = (field: string): string =>
  `Sorry, ${field} can't contain control characters`

/**
 * A text field's rules, worded like the spec's: required, at most `limit` characters (`tooLong`
 * says so), and no control characters, on one line or many.
 */
export function textField(
  name: string,
  limit: number,
  lines: CharacterRule['lines'],
  tooLong: string = mustBeAtMost(limit),
): FieldRule {
  return {
    required: `Sorry, ${name} is required`,
    maxLength: { limit, message: tooLong },
    characters: { lines, message: noControlCharacters(name) },
  }
}

export function hasErrors(errors: FieldErrors<string>): boolean {
  return Object.keys(errors).length > 0
}
