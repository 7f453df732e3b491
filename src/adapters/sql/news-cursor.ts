import { DomainErrorException, validationFailed } from '@/domain/domain-error'
import { isNewsId } from '@/domain/news-id'

/** Where a page ends: the list resumes strictly after this (createdAt, id) pair. */
export interface CursorPosition {
  readonly createdAt: string
  readonly id: string
}

export const INVALID_CURSOR_MESSAGE = 'Must be the cursor of a previous page'

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const BASE64URL = /^[A-Za-z0-9_-]+$/
// 24 characters of instant, a space and at most 64 of id, in base64url.
const MAX_CURSOR_LENGTH = 120

/** An opaque, URL-safe token: base64url of "<createdAt> <id>". */
export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(`${position.createdAt} ${position.id}`, 'utf8').toString('base64url')
}

/** The position a token names, or undefined when it is not a token this adapter made. */
export function parseCursor(token: string): CursorPosition | undefined {
  if (token.length === 0 || token.length > MAX_CURSOR_LENGTH || !BASE64URL.test(token)) {
    return undefined
  }
  const [createdAt, id, ...rest] = Buffer.from(token, 'base64url').toString('utf8').split(' ')
  if (createdAt === undefined || id === undefined || rest.length > 0) return undefined
  if (!ISO_INSTANT.test(createdAt) || !isNewsId(id)) return undefined
  // Rejects impossible dates such as 2026-02-30, which the pattern alone lets through.
  const instant = new Date(createdAt)
  if (Number.isNaN(instant.getTime()) || instant.toISOString() !== createdAt) return undefined
  const position = { createdAt, id }
  // One token per position: base64url's spare bits must not make look-alikes.
  return encodeCursor(position) === token ? position : undefined
}

export function isValidCursor(token: string): boolean {
  return parseCursor(token) !== undefined
}

/** As parseCursor, but a malformed token is the caller's mistake: ValidationFailed on `cursor`. */
export function decodeCursor(token: string): CursorPosition {
  const position = parseCursor(token)
  if (position === undefined) {
    throw new DomainErrorException(validationFailed({ cursor: INVALID_CURSOR_MESSAGE }))
  }
  return position
}
