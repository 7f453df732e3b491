/**
 * A small seeded generator (mulberry32): the same seed gives the same numbers on every machine,
 * so that a fuzz run that finds a failure can be run again exactly.
 */
export class SeededRandom {
  private state: number

  constructor(readonly seed: number) {
    this.state = seed >>> 0
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** An integer in [0, below). */
  int(below: number): number {
    return Math.floor(this.next() * below)
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1)
  }

  chance(probability: number): boolean {
    return this.next() < probability
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)]
    if (item === undefined) throw new Error('pick from an empty list')
    return item
  }

  /** Runs one of the makers, each as likely as the others. */
  oneOf<T>(makers: ReadonlyArray<() => T>): T {
    return this.pick(makers)()
  }

  /** `length` characters, each drawn by `char`. */
  string(length: number, char: () => string): string {
    let out = ''
    for (let index = 0; index < length; index += 1) out += char()
    return out
  }
}

/** A fresh seed from the clock and Math.random, for runs that are not given one. */
export function freshSeed(): number {
  return (Date.now() ^ Math.floor(Math.random() * 0x100000000)) >>> 0
}
