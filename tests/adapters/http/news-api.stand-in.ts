import { UNKNOWN_EDITOR } from '@/domain/editor'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { isDomainError } from '@/domain/domain-error'
import type { NewsDraft, NewsItem, TrashedNewsItem } from '@/domain/news-item.entity'
import type { NewsRevision } from '@/domain/news-revision.entity'
import {
  assertRestorable,
  assertWritable,
  created,
  edited,
  liveItem,
  reverted,
  trashed,
  trashedItem,
  untrashed,
  type Revised,
  type StoredNews,
  type WriteCondition,
} from '@/domain/rules/news-history.rules'

export interface ReceivedRequest {
  readonly method: string
  /** The path and query exactly as they arrived, before any decoding. */
  readonly rawUrl: string
  readonly headers: IncomingMessage['headers']
  readonly body: string
}

export type Answer = (request: ReceivedRequest, response: ServerResponse) => void

export interface LocalServer {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  readonly origin: string
  readonly received: ReceivedRequest[]
  close(): Promise<void>
}

/** Starts a real HTTP server on a free local port; `answer` sees each request with its body. */
export async function startLocalServer(answer: Answer): Promise<LocalServer> {
  const received: ReceivedRequest[] = []
  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const request: ReceivedRequest = {
        method: incoming.method ?? 'GET',
        rawUrl: incoming.url ?? '/',
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      received.push(request)
      answer(request, response)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        // Ends keep-alive and deliberately unanswered sockets too, so nothing outlives the file.
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** An origin on which nothing listens: the port was free a moment ago and is closed again. */
export async function refusedOrigin(): Promise<string> {
  const server = await startLocalServer(() => undefined)
  await server.close()
  return server.origin
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const type = status >= 400 ? 'application/problem+json' : 'application/json'
  response.writeHead(status, { 'Content-Type': type, ...headers })
  response.end(JSON.stringify(body))
}

export function sendProblem(
  response: ServerResponse,
  status: number,
  title: string,
  errors?: Record<string, string>,
): void {
  sendJson(response, status, { type: 'about:blank', title, status, detail: title, errors })
}

export interface NewsApiStandIn extends LocalServer {
  /** Every post ever created and not purged, live or in the trash. */
  readonly posts: StoredNews[]
  /** Each post's revisions, oldest first. */
  readonly histories: Map<string, NewsRevision[]>
  /** Replaces everything stored with these live posts, each with a history of one create. */
  seed(items: readonly NewsItem[]): void
  /** When set, answers every request instead of the contract implementation. */
  override: Answer | undefined
}

const REQUIRED: Record<keyof NewsDraft, string> = {
  title: 'Sorry, title is required',
  body: 'Sorry, body is required',
  author: 'Sorry, author is required',
}

const ITEM_ROUTE = /^\/api\/news\/([^/]+)(?:\/(restore|revisions)(?:\/([^/]+)\/(restore))?)?$/

/**
 * A small implementation of the API contract over arrays, enough to talk to over the network:
 * newest-first pages of posts and of the trash with `Link` headers, items with `ETag`,
 * conditional edits and deletes (`If-Match`, 412 with `current`), the trash with restore,
 * and paged revisions. The history rules are the domain's own. Idempotent creates are left to
 * the real server (tests/server/browser-adapters.test.ts).
 */
export async function startNewsApi(): Promise<NewsApiStandIn> {
  const posts: StoredNews[] = []
  const histories = new Map<string, NewsRevision[]>()
  let sequence = 0
  let ticks = 0
  // Every change happens one second after the one before, so orders never tie.
  const now = () => new Date(Date.UTC(2030, 0, 1) + (ticks += 1) * 1000)
  // The stand-in is the server; it names every client the same.
  const stamp = () => ({ now: now(), editor: UNKNOWN_EDITOR })

  const find = (id: string) => posts.find((post) => post._id === id)
  const write = ({ item, revision }: Revised): StoredNews => {
    const index = posts.findIndex((post) => post._id === item._id)
    if (index === -1) posts.push(item)
    else posts[index] = item
    histories.set(item._id, [...(histories.get(item._id) ?? []), revision])
    return item
  }

  const contract: Answer = (request, response) => {
    const url = new URL(request.rawUrl, 'http://stand-in')
    const { method } = request

    if (url.pathname === '/api/news' && method === 'GET') {
      const live = posts.filter((post) => post.deletedAt === null)
      const sorted = live.sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      return sendPageOf(response, url, sorted.map(liveItem))
    }
    if (url.pathname === '/api/trash' && method === 'GET') {
      const inTrash = posts.filter(
        (post): post is StoredNews & { deletedAt: string } => post.deletedAt !== null,
      )
      const sorted = inTrash.sort((a, b) => b.deletedAt.localeCompare(a.deletedAt))
      return sendPageOf(response, url, sorted.map(trashedItem))
    }
    if (url.pathname === '/api/news' && method === 'POST') {
      const draft = jsonOf(request)
      const errors = fieldErrors(draft, ['title', 'body', 'author'])
      if (Object.keys(errors).length > 0) {
        return sendProblem(response, 422, 'Unprocessable Content', errors)
      }
      const values = {
        title: String(draft.title),
        body: String(draft.body),
        author: String(draft.author),
      }
      sequence += 1
      const item = write(created(`created-${sequence}`, values, stamp()))
      return sendJson(response, 201, liveItem(item), { Location: `/api/news/${item._id}` })
    }

    const route = ITEM_ROUTE.exec(url.pathname)
    if (route === null) return sendProblem(response, 404, 'Not Found')
    const [, rawId = '', sub, rawRevision, subRestore] = route
    const id = decodeURIComponent(rawId)
    const stored = find(id)

    try {
      if (sub === undefined && method === 'GET') {
        assertWritable(stored)
        return sendJson(response, 200, liveItem(stored), { ETag: `"rev-${stored.revision}"` })
      }
      if (sub === undefined && method === 'PATCH') {
        assertWritable(stored, conditionOf(request))
        const changes = jsonOf(request)
        const given = (['title', 'body', 'author'] as const).filter((f) => f in changes)
        const errors = fieldErrors(changes, given)
        if (Object.keys(errors).length > 0) {
          return sendProblem(response, 422, 'Unprocessable Content', errors)
        }
        const change = edited(
          stored,
          Object.fromEntries(given.map((f) => [f, changes[f]])),
          stamp(),
        )
        return sendJson(response, 200, liveItem(change === undefined ? stored : write(change)))
      }
      if (sub === undefined && method === 'DELETE') {
        assertWritable(stored, conditionOf(request))
        write(trashed(stored, stamp()))
        response.writeHead(204).end()
        return
      }
      if (sub === 'restore' && method === 'POST') {
        assertRestorable(stored)
        return sendJson(response, 200, liveItem(write(untrashed(stored, stamp()))))
      }
      if (sub === 'revisions' && rawRevision === undefined && method === 'GET') {
        const history = histories.get(id) ?? []
        if (history.length === 0) return sendProblem(response, 404, 'Not Found')
        const newestFirst = [...history].reverse()
        return sendPageOf(response, url, newestFirst, (revision) => String(revision.revision), 50)
      }
      if (sub === 'revisions' && subRestore === 'restore' && method === 'POST') {
        const number = /^\d+$/.test(rawRevision ?? '') ? Number(rawRevision) : NaN
        const target = histories.get(id)?.find((revision) => revision.revision === number)
        if (stored === undefined || target === undefined) {
          return sendProblem(response, 404, 'Not Found')
        }
        if (stored.deletedAt !== null) return sendProblem(response, 409, 'Conflict')
        return sendJson(response, 200, liveItem(write(reverted(stored, target, stamp()))))
      }
      if (sub === undefined || sub === 'revisions' || sub === 'restore') {
        return sendProblem(response, 405, 'Method Not Allowed')
      }
    } catch (thrown) {
      if (!isDomainError(thrown)) throw thrown
      const error = thrown
      if (error.code === 'Stale') {
        return sendJson(response, 412, {
          type: 'about:blank',
          title: 'Precondition Failed',
          status: 412,
          detail: 'The post was changed meanwhile.',
          current: error.current,
        })
      }
      if (error.code === 'Conflict') return sendProblem(response, 409, 'Conflict')
      return sendProblem(response, 404, 'Not Found')
    }
    sendProblem(response, 404, 'Not Found')
  }

  const server = await startLocalServer((request, response) =>
    (standIn.override ?? contract)(request, response),
  )
  const standIn: NewsApiStandIn = {
    ...server,
    posts,
    histories,
    override: undefined,
    seed(items) {
      posts.splice(0, posts.length, ...items.map((item) => ({ ...item, deletedAt: null })))
      histories.clear()
      for (const item of items) {
        const { title, body, author, revision, updatedAt: at } = item
        histories.set(item._id, [
          { revision, title, body, author, action: 'create', at, editor: UNKNOWN_EDITOR },
        ])
      }
    },
  }
  return standIn
}

/**
 * A page of `sorted` after the item whose key (the id, or a version's number) is the cursor,
 * with `Link rel="next"` when more follow. An unknown cursor is refused, as the real server
 * refuses it.
 */
function sendPageOf<Item extends NewsItem | TrashedNewsItem | NewsRevision>(
  response: ServerResponse,
  url: URL,
  sorted: readonly Item[],
  keyOf: (item: Item) => string = (item) => ('_id' in item ? item._id : String(item.revision)),
  defaultLimit = 24,
): void {
  const limit = Number(url.searchParams.get('limit') ?? defaultLimit)
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    return sendProblem(response, 400, 'Bad Request')
  }
  const cursor = url.searchParams.get('cursor')
  const after = cursor === null ? -1 : sorted.findIndex((item) => keyOf(item) === cursor)
  if (cursor !== null && after === -1) return sendProblem(response, 400, 'Bad Request')
  const start = after + 1
  const page = sorted.slice(start, start + limit)
  const last = page.at(-1)
  const headers: Record<string, string> = {}
  if (start + limit < sorted.length && last !== undefined) {
    // Relative targets, and a second link before `next`, as real servers send them.
    headers.Link =
      `<${url.pathname}?limit=${limit}>; rel="first", ` +
      `<${url.pathname}?limit=${limit}&cursor=${encodeURIComponent(keyOf(last))}>; rel="next"`
  }
  sendJson(response, 200, page, headers)
}

/**
 * The condition an If-Match header sets: a list of strong `"rev-N"` tags accepts those
 * revisions, `*` any, and anything else none, so that garbage answers 412.
 */
function conditionOf(request: ReceivedRequest): WriteCondition | undefined {
  const header = request.headers['if-match']
  if (header === undefined) return undefined
  // `*` asks only that the post exists, which every write checks anyway.
  if (header.trim() === '*') return undefined
  const revisions: number[] = []
  for (const tag of header.split(',')) {
    const match = /^"rev-([1-9]\d*)"$/.exec(tag.trim())
    if (match === null) return { ifRevision: [] }
    revisions.push(Number(match[1]))
  }
  return { ifRevision: revisions }
}

function jsonOf(request: ReceivedRequest): Record<string, unknown> {
  const value: unknown = JSON.parse(request.body || '{}')
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {}
}

function fieldErrors(
  values: Record<string, unknown>,
  fields: readonly (keyof NewsDraft)[],
): Record<string, string> {
  const errors: Record<string, string> = {}
  for (const field of fields) {
    const value = values[field]
    if (typeof value !== 'string' || value.trim() === '') errors[field] = REQUIRED[field]
  }
  return errors
}
