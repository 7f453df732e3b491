import { validationFailed } from '@/domain/domain-error'
import { isNewsId } from '@/domain/news-id'
import { isRevisionNumber } from '@/domain/rules/news-history.rules'
import {
  DEFAULT_HISTORY_PAGE_SIZE,
  DEFAULT_PAGE_SIZE,
  MAX_HISTORY_PAGE_SIZE,
  MAX_PAGE_SIZE,
} from '@/domain/ports/news-repository.port'

/**
 * Where a keyset page ends: the next page resumes strictly after this (instant, id) pair in
 * newest-first order. The instant is the sort key of the list it came from: creation for the
 * live list, deletion for the trash.
 */
export interface KeysetPosition {
  readonly at: string
  readonly id: string
}

export const INVALID_CURSOR_MESSAGE = 'Must be the cursor of a previous page'

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
// Every instant a store writes is the server's clock: never before 1970. PostgreSQL refuses the
// year 0 that the pattern lets through, so an earlier instant is a forged cursor, not a page.
const EARLIEST_INSTANT_MS = 0
export const BASE64URL = /^[A-Za-z0-9_-]+$/
// 24 characters of instant, a space and at most 64 of id, in base64url.
export const MAX_CURSOR_LENGTH = 120

// btoa/atob rather than Buffer: the in-memory store also runs in the browser's tests.
/** UTF-8 text as base64url without padding: the body of every cursor. */
export function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text)
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** The text a base64url token holds, or undefined when it is not base64url of UTF-8. */
export function fromBase64Url(token: string): string | undefined {
  try {
    const binary = atob(token.replace(/-/g, '+').replace(/_/g, '/'))
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0))
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
}

/** An opaque, URL-safe token: base64url of "<instant> <id>". */
export function encodeCursor(position: KeysetPosition): string {
  return toBase64Url(`${position.at} ${position.id}`)
}

/** The position a token names, or undefined when it is not a token an adapter made. */
export function parseCursor(token: string): KeysetPosition | undefined {
  if (token.length === 0 || token.length > MAX_CURSOR_LENGTH || !BASE64URL.test(token)) {
    return undefined
  }
  const [at, id, ...rest] = (fromBase64Url(token) ?? '').split(' ')
  if (at === undefined || id === undefined || rest.length > 0) return undefined
  if (!ISO_INSTANT.test(at) || !isNewsId(id)) return undefined
  // Rejects impossible dates such as 2026-02-30, which the pattern alone lets through.
  // The pattern's four-digit year already ends the range at 9999-12-31.
  const instant = new Date(at)
  if (Number.isNaN(instant.getTime()) || instant.toISOString() !== at) return undefined
  if (instant.getTime() < EARLIEST_INSTANT_MS) return undefined
  const position = { at, id }
  // One token per position: base64url's spare bits must not make look-alikes.
  return encodeCursor(position) === token ? position : undefined
}

export function isValidCursor(token: string): boolean {
  return parseCursor(token) !== undefined
}

/**
 * A cursor parser whose malformed tokens are the caller's mistake: ValidationFailed on
 * `cursor`. Every kind of cursor (lists, histories, search) is decoded through it.
 */
export function decoderOf<Position>(
  parse: (token: string) => Position | undefined,
): (token: string) => Position {
  return (token) => {
    const position = parse(token)
    if (position === undefined) {
      throw validationFailed({ cursor: INVALID_CURSOR_MESSAGE })
    }
    return position
  }
}

/** As parseCursor, but a malformed token is ValidationFailed on `cursor`. */
export const decodeCursor = decoderOf(parseCursor)

/** 1 to MAX_PAGE_SIZE; DEFAULT_PAGE_SIZE when absent or not a number. */
export function clampPageSize(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_PAGE_SIZE
  return Math.min(Math.max(Math.trunc(limit), 1), MAX_PAGE_SIZE)
}

/** 1 to MAX_HISTORY_PAGE_SIZE; DEFAULT_HISTORY_PAGE_SIZE when absent or not a number. */
export function clampHistoryPageSize(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_HISTORY_PAGE_SIZE
  return Math.min(Math.max(Math.trunc(limit), 1), MAX_HISTORY_PAGE_SIZE)
}

// A number as a token spells it: no sign, no leading zero, at most sixteen digits.
const WHOLE_NUMBER = /^[1-9]\d{0,15}$/

/**
 * An opaque token (base64url of "<prefix> <n>") for a page that ends at a number, and its
 * parser, which takes back only the tokens it made for numbers `isValid` admits.
 */
function numberedCursor(prefix: string, isValid: (value: number) => boolean) {
  const encode = (value: number): string => toBase64Url(`${prefix} ${value}`)
  const parse = (token: string): number | undefined => {
    if (token.length === 0 || token.length > MAX_CURSOR_LENGTH || !BASE64URL.test(token)) {
      return undefined
    }
    const text = fromBase64Url(token) ?? ''
    if (!text.startsWith(`${prefix} `)) return undefined
    const digits = text.slice(prefix.length + 1)
    if (!WHOLE_NUMBER.test(digits)) return undefined
    const value = Number(digits)
    if (!isValid(value)) return undefined
    // One token per position, as for the lists.
    return encode(value) === token ? value : undefined
  }
  return { encode, parse }
}

/**
 * A history page ends at a revision number: the next page holds the older ones. The token is
 * opaque like the lists' (base64url of "rev <n>"), so that clients pass it back untouched.
 * Beyond what the engines store (PostgreSQL would refuse the query) names no page of any history.
 */
const revisionCursor = numberedCursor('rev', isRevisionNumber)

export const encodeRevisionCursor = revisionCursor.encode

/** The revision a history token names, or undefined when it is not one an adapter made. */
export const parseRevisionCursor = revisionCursor.parse

/** As parseRevisionCursor, but a malformed token is ValidationFailed on `cursor`. */
export const decodeRevisionCursor = decoderOf(parseRevisionCursor)

/** A page of the recent changes ends at a seq: the next page holds the older changes. */
const changeCursor = numberedCursor('seq', Number.isSafeInteger)

export const encodeChangeCursor = changeCursor.encode

/** As the revisions', for the change log's seq; ValidationFailed for a malformed token. */
export const decodeChangeCursor = decoderOf(changeCursor.parse)

/**
 * A page from rows fetched one beyond `limit` (the extra row tells that another page follows):
 * the first `limit` items, and the token after the last of them when more remain.
 */
function pageOf<Item>(
  rows: readonly Item[],
  limit: number,
  tokenAfter: (item: Item) => string,
): { readonly items: Item[]; readonly next?: string } {
  const items = rows.slice(0, limit)
  const last = items.at(-1)
  return rows.length > limit && last !== undefined ? { items, next: tokenAfter(last) } : { items }
}

/** A page of the recent changes, newest first; its next page holds the older changes. */
export function changePage<Item extends { readonly seq: number }>(
  rows: readonly Item[],
  limit: number,
): { readonly items: Item[]; readonly next?: string } {
  return pageOf(rows, limit, (item) => encodeChangeCursor(item.seq))
}

/** A history page from revisions fetched one beyond `limit`, newest first. */
export function revisionPage<Item extends { readonly revision: number }>(
  rows: readonly Item[],
  limit: number,
): { readonly items: Item[]; readonly next?: string } {
  return pageOf(rows, limit, (item) => encodeRevisionCursor(item.revision))
}

/** A page of a list keyset-paged on (instant, id); see pageOf. */
export function keysetPage<Item>(
  rows: readonly Item[],
  limit: number,
  positionOf: (item: Item) => KeysetPosition,
): { readonly items: Item[]; readonly next?: string } {
  return pageOf(rows, limit, (item) => encodeCursor(positionOf(item)))
}
