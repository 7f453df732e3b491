import { characterCount } from '@/domain/rules/character-count'

/** From this share of a limit on, the room left is announced to screen readers. */
const NEAR_SHARE = 0.9

/** How much of a field's length limit a value takes, counted as the domain's rule counts it. */
export interface RoomUsed {
  readonly used: number
  readonly limit: number
}

/**
 * The characters `value` takes against `limit`: white space around it is left out and an emoji
 * is one character, as the rule checks them, so that the count and the message never disagree.
 */
export function roomUsed(value: string, limit: number): RoomUsed {
  return { used: characterCount(value.trim()), limit }
}

/** The counter's visible text, for example '12/100'. */
export function roomLabel({ used, limit }: RoomUsed): string {
  return `${used}/${limit}`
}

/** Whether the value is past the limit. */
export function isOverLimit({ used, limit }: RoomUsed): boolean {
  return used > limit
}

const characters = (count: number): string => `${count} character${count === 1 ? '' : 's'}`

/**
 * What a screen reader hears about the room left: nothing until the value is within a tenth of
 * its limit, so that typing is not talked over on every key; then the room left, or how far past
 * the limit the value is.
 */
export function roomAnnouncement(room: RoomUsed): string {
  const { used, limit } = room
  if (isOverLimit(room)) return `${characters(used - limit)} over the limit of ${limit}`
  if (used < Math.ceil(limit * NEAR_SHARE)) return ''
  return `${characters(limit - used)} left of ${limit}`
}
