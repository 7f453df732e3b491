import { vi } from 'vitest'

/** What the grapheme segmenter was asked to do while a piece of work ran. */
export interface SegmenterWork {
  /** The length in code units of each text handed to `segment()`, in order. */
  readonly handed: readonly number[]
  /** How many segments were read out of them. */
  readonly steps: number
}

/**
 * More code units than any text the rules should ever hand the segmenter at once: a longer one
 * makes the spy throw, so that a count gone quadratic fails at once instead of running for minutes.
 */
export const SEGMENTER_GUARD_UNITS = 65_536

/**
 * Runs `work` and records what Intl.Segmenter did meanwhile: the real segmenter does the work,
 * and every text it is handed and every segment read out of it are counted. The cost of a walk
 * grows with the length of the text handed, so these say how much work a count took, where a
 * time would only say how busy the machine was.
 */
export async function segmenterWork(work: () => unknown): Promise<SegmenterWork> {
  const handed: number[] = []
  let steps = 0
  const segment = Intl.Segmenter.prototype.segment
  const spy = vi.spyOn(Intl.Segmenter.prototype, 'segment').mockImplementation(function (
    this: Intl.Segmenter,
    input?: string,
  ) {
    const text = input ?? ''
    handed.push(text.length)
    if (text.length > SEGMENTER_GUARD_UNITS) {
      throw new Error(`the segmenter was handed ${text.length} code units at once`)
    }
    const segments = segment.call(this, text)
    const counted = {
      containing: (index?: number) => segments.containing(index),
      [Symbol.iterator]() {
        const walk = segments[Symbol.iterator]()
        return {
          next() {
            const result = walk.next()
            if (result.done !== true) steps += 1
            return result
          },
          [Symbol.iterator]() {
            return this
          },
        }
      },
    }
    return counted as unknown as Intl.Segments
  })
  try {
    await work()
  } finally {
    spy.mockRestore()
  }
  return { handed, steps }
}

/** The code units handed to the segmenter, all together. */
export const unitsHanded = (work: SegmenterWork): number =>
  work.handed.reduce((sum, units) => sum + units, 0)
