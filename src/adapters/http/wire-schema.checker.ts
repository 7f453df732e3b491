import type { Static, TSchema } from 'typebox'

/**
 * Checks a value against a wire schema (news.wire-schemas.ts) in the browser. TypeBox's own
 * checker would add about 12 KB gzip to the first visit (and its compiler needs eval, which the
 * Content-Security-Policy forbids), so this reads the same schema objects with the few JSON
 * Schema keywords they use. A keyword it has no rule for throws rather than passing unchecked;
 * the tests hold it to TypeBox's `Value.Check` on every wire schema.
 */

type Check = (argument: unknown, value: unknown) => boolean

/** Keywords that only describe; they constrain nothing. */
const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', '$id', '$schema'])

const FORMATS: Readonly<Record<string, (text: string) => boolean>> = { 'date-time': isDateTime }

// RFC 3339, as TypeBox's 'date-time' format reads it (typebox/format brings every other format
// along, some 5 KB gzip). A leap second is refused: no Date can hold one, and no server sends one.
const DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.\d+)?(?:Z|[+-](\d\d):(\d\d))$/i
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

const patterns = new Map<string, RegExp>()

const RULES: Readonly<Record<string, Check>> = {
  type: (type, value) => isOfType(text(type), value),
  properties: (properties, value) =>
    !isRecord(value) ||
    Object.entries(record(properties)).every(
      ([name, schema]) => !Object.hasOwn(value, name) || conforms(record(schema), value[name]),
    ),
  required: (names, value) =>
    !isRecord(value) || list(names).every((name) => Object.hasOwn(value, text(name))),
  items: (schema, value) =>
    !Array.isArray(value) || value.every((item) => conforms(record(schema), item)),
  enum: (values, value) => list(values).some((allowed) => allowed === value),
  const: (allowed, value) => allowed === value,
  anyOf: (schemas, value) => list(schemas).some((schema) => conforms(record(schema), value)),
  minimum: (bound, value) => typeof value !== 'number' || value >= number(bound),
  maximum: (bound, value) => typeof value !== 'number' || value <= number(bound),
  pattern: (source, value) => typeof value !== 'string' || patternOf(text(source)).test(value),
  format: (name, value) => typeof value !== 'string' || formatOf(text(name))(value),
}

/** Whether `value` satisfies every keyword of `schema`. */
export function conforms(schema: Readonly<Record<string, unknown>>, value: unknown): boolean {
  return Object.entries(schema).every(([keyword, argument]) => {
    const rule = RULES[keyword]
    if (rule !== undefined) return rule(argument, value)
    if (ANNOTATIONS.has(keyword)) return true
    throw new Error(`The wire schema checker has no rule for "${keyword}".`)
  })
}

/**
 * The value as the schema types it, keeping only the properties the schema declares (so that
 * nothing else a server sends travels inward), or undefined when it does not conform.
 */
export function decode<Schema extends TSchema>(
  schema: Schema,
  value: unknown,
): Static<Schema> | undefined {
  const keywords = record(schema)
  // Checked just above: the value has the schema's shape, which is what Static<Schema> names.
  return conforms(keywords, value) ? (declaredPart(keywords, value) as Static<Schema>) : undefined
}

function declaredPart(schema: Readonly<Record<string, unknown>>, value: unknown): unknown {
  if (Array.isArray(value) && schema.items !== undefined) {
    const items = record(schema.items)
    return value.map((item) => declaredPart(items, item))
  }
  if (!isRecord(value) || schema.properties === undefined) return value
  const declared = Object.entries(record(schema.properties)).filter(([name]) =>
    Object.hasOwn(value, name),
  )
  // fromEntries defines own properties, so a "__proto__" key cannot touch the prototype.
  return Object.fromEntries(
    declared.map(([name, property]) => [name, declaredPart(record(property), value[name])]),
  )
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isOfType(type: string, value: unknown): boolean {
  switch (type) {
    case 'object':
      return isRecord(value)
    case 'array':
      return Array.isArray(value)
    case 'integer':
      return Number.isInteger(value)
    case 'number':
      return typeof value === 'number'
    case 'null':
      return value === null
    case 'string':
    case 'boolean':
      return typeof value === type
  }
  throw new Error(`The wire schema checker knows no type "${type}".`)
}

function patternOf(source: string): RegExp {
  let pattern = patterns.get(source)
  if (pattern === undefined) {
    pattern = new RegExp(source, 'u')
    patterns.set(source, pattern)
  }
  return pattern
}

function formatOf(name: string): (text: string) => boolean {
  const format = FORMATS[name]
  if (format === undefined) throw new Error(`The wire schema checker knows no format "${name}".`)
  return format
}

function isDateTime(value: string): boolean {
  const parts = DATE_TIME.exec(value)?.slice(1)
  if (parts === undefined) return false
  const [
    year = 0,
    month = 0,
    day = 0,
    hour = 0,
    minute = 0,
    second = 0,
    zoneHour = 0,
    zoneMinute = 0,
  ] = parts.map((part) => Number(part ?? 0))
  const leapDay = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 1 : 0
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= (DAYS_IN_MONTH[month - 1] ?? 0) + leapDay &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59 &&
    zoneHour <= 23 &&
    zoneMinute <= 59
  )
}

// A schema is data written in this repository; these only narrow its parts for the compiler.
function record(part: unknown): Readonly<Record<string, unknown>> {
  if (typeof part !== 'object' || part === null) throw new Error('A schema must be an object.')
  return part as Readonly<Record<string, unknown>>
}

function list(part: unknown): readonly unknown[] {
  if (!Array.isArray(part)) throw new Error('The schema keyword needs a list.')
  return part
}

function text(part: unknown): string {
  if (typeof part !== 'string') throw new Error('The schema keyword needs a string.')
  return part
}

function number(part: unknown): number {
  if (typeof part !== 'number') throw new Error('The schema keyword needs a number.')
  return part
}
