import type { Readable } from 'node:stream'
import { Type } from 'typebox'
import { NewsChangeSchema, StreamPositionSchema } from '@/contract/news-change.wire-schemas'
import { MAX_REPLAY } from '@/application/change-feed'
import { EVENT_REPLAY_WINDOW_MS } from '@/domain/rules/news-history.rules'
import { EVENT_STREAM_DEFAULTS } from '@/server/services/event-stream'
import { problemResponse } from '@/contract/problem.schema'

/** The largest resume point: a seq a JavaScript number holds exactly (2^53 − 1). */
export const MAX_RESUME_POINT = Number.MAX_SAFE_INTEGER

const RESUME_POINT =
  `A seq the reader has seen: a decimal whole number from 0 to ${MAX_RESUME_POINT}, at most ` +
  '16 digits; anything else answers 400.'

// Both only describe: the route judges them, so that any malformed one answers the same 400.
export const EVENTS_QUERY_SCHEMA = Type.Object({
  since: Type.Optional(
    Type.String({
      description: `${RESUME_POINT} For an EventSource the page opens itself, which cannot set Last-Event-ID. The header wins when both are given.`,
    }),
  ),
})

const EVENTS_HEADERS = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({
      description: `${RESUME_POINT} An EventSource sends it by itself when it reconnects.`,
    }),
  ),
})

const STREAM_DESCRIPTION =
  'Server-Sent Events, never compressed or cached. On a resume: each change after the resume ' +
  'point, oldest first, or one `reset` instead when they cannot all be told (more than ' +
  `${MAX_REPLAY}, older than the ${EVENT_REPLAY_WINDOW_MS / 3_600_000} hours a resume replays, ` +
  'or past the current version). Then always one `ready`, then each change as it is made on ' +
  'any server. Every message’s `id` is its seq; `x-event-data` gives the `data` of each ' +
  'event (`reset`: reload what you show). A `: heartbeat` comment comes every ' +
  `${EVENT_STREAM_DEFAULTS.heartbeatMs / 1000} s; with no bytes for ` +
  `${(3 * EVENT_STREAM_DEFAULTS.heartbeatMs) / 1000} s, reconnect.`

const RETRY_AFTER = Type.Integer({ description: 'Seconds to wait before trying again.' })

export const EVENTS_SCHEMA = {
  tags: ['live'],
  summary: 'The live stream of created, edited, deleted and restored posts',
  description:
    'Changes made through any server sharing the database, numbered in commit order (`seq`). ' +
    'A history restore is announced as `edited`, a restore from the trash as `restored`. ' +
    `At most ${EVENT_STREAM_DEFAULTS.perAddress} streams may be open per client address, and ` +
    `${EVENT_STREAM_DEFAULTS.reconnectsPerMinute} may have closed within the last minute, ` +
    'across all servers; each server holds a bounded number of streams (MAX_STREAMS).',
  querystring: EVENTS_QUERY_SCHEMA,
  headers: EVENTS_HEADERS,
  response: {
    200: {
      description: STREAM_DESCRIPTION,
      content: {
        'text/event-stream': {
          // A Readable to the handler, which sends the stream; a string of messages on the wire.
          schema: Type.Unsafe<Readable>({ type: 'string', description: 'The messages.' }),
          // What each message's `data` holds, by its event name.
          'x-event-data': {
            change: NewsChangeSchema,
            ready: StreamPositionSchema,
            reset: StreamPositionSchema,
          },
        },
      },
    },
    400: problemResponse('The Last-Event-ID or the since is not a valid resume point.'),
    429: {
      ...problemResponse(
        `This address has ${EVENT_STREAM_DEFAULTS.perAddress} live streams open already, or has ` +
          `closed ${EVENT_STREAM_DEFAULTS.reconnectsPerMinute} within a minute; see Retry-After.`,
      ),
      headers: { 'Retry-After': RETRY_AFTER },
    },
    503: {
      ...problemResponse(
        'This server holds all the live streams it may (see Retry-After), or the database does ' +
          'not answer.',
      ),
      headers: { 'Retry-After': RETRY_AFTER },
    },
  },
} as const
