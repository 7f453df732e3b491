import { parseArgs } from 'node:util'

/** A whole number on a bench's command line: its default, and the range it is held to. */
export type NumberOption = readonly [fallback: number, least: number, most: number]

/**
 * Reads a bench's command line: `--name N` for each number, held to its range (a value that is
 * not a number takes the default); `--name` for each flag, off unless given; `--name TEXT` for
 * each text, with its default.
 */
export function benchOptions<
  N extends string,
  F extends string = never,
  T extends Record<string, string | undefined> = Record<never, never>,
>(
  numbers: Record<N, NumberOption>,
  more: { readonly flags?: readonly F[]; readonly texts?: T } = {},
): Record<N, number> & Record<F, boolean> & T {
  const ranges = Object.entries<NumberOption>(numbers)
  const flags: readonly string[] = more.flags ?? []
  const texts = Object.entries(more.texts ?? {})
  const { values } = parseArgs({
    options: Object.fromEntries([
      ...ranges.map(([name]) => [name, { type: 'string' }] as const),
      ...flags.map((name) => [name, { type: 'boolean' }] as const),
      ...texts.map(([name]) => [name, { type: 'string' }] as const),
    ]),
  })
  const given = values as Record<string, string | boolean | undefined>
  return Object.fromEntries([
    ...ranges.map(([name, [fallback, least, most]]) => {
      const value = Math.trunc(Number(given[name] ?? fallback))
      return [name, Number.isFinite(value) ? Math.min(Math.max(value, least), most) : fallback]
    }),
    ...flags.map((name) => [name, given[name] === true]),
    ...texts.map(([name, fallback]) => [name, given[name] ?? fallback]),
  ]) as Record<N, number> & Record<F, boolean> & T
}
