import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { NewsItem } from '@/domain/news-item.entity'

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
  readonly items: NewsItem[]
  /** When set, answers every request instead of the contract implementation. */
  override: Answer | undefined
}

const REQUIRED: Record<'title' | 'body' | 'author', string> = {
  title: 'Sorry, title is required',
  body: 'Sorry, body is required',
  author: 'Sorry, author is required',
}

/**
 * A small implementation of the API contract over an array, enough to talk to over the
 * network: newest-first pages with `Link` headers, items, create, edit and delete.
 */
export async function startNewsApi(): Promise<NewsApiStandIn> {
  const items: NewsItem[] = []
  let sequence = 0

  const contract: Answer = (request, response) => {
    const url = new URL(request.rawUrl, 'http://stand-in')
    const id = url.pathname.startsWith('/api/news/')
      ? decodeURIComponent(url.pathname.slice('/api/news/'.length))
      : undefined
    const index = items.findIndex((item) => item._id === id)

    if (url.pathname === '/api/news' && request.method === 'GET') {
      const limit = Number(url.searchParams.get('limit') ?? 24)
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
        return sendProblem(response, 400, 'Bad Request')
      }
      const sorted = [...items].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      const cursor = url.searchParams.get('cursor')
      const start = cursor === null ? 0 : sorted.findIndex((item) => item._id === cursor) + 1
      const page = sorted.slice(start, start + limit)
      const last = page.at(-1)
      const headers: Record<string, string> = {}
      if (start + limit < sorted.length && last !== undefined) {
        // Relative targets, and a second link before `next`, as real servers send them.
        headers.Link =
          `</api/news?limit=${limit}>; rel="first", ` +
          `</api/news?limit=${limit}&cursor=${encodeURIComponent(last._id)}>; rel="next"`
      }
      return sendJson(response, 200, page, headers)
    }

    if (url.pathname === '/api/news' && request.method === 'POST') {
      const draft = JSON.parse(request.body) as Record<string, unknown>
      const errors = fieldErrors(draft, ['title', 'body', 'author'])
      if (Object.keys(errors).length > 0) {
        return sendProblem(response, 422, 'Unprocessable Content', errors)
      }
      sequence += 1
      const item: NewsItem = {
        _id: `created-${sequence}`,
        title: String(draft.title),
        body: String(draft.body),
        author: String(draft.author),
        createdAt: new Date(Date.UTC(2030, 0, 1, 0, 0, sequence)).toISOString(),
      }
      items.push(item)
      return sendJson(response, 201, item, { Location: `/api/news/${item._id}` })
    }

    if (id === undefined || index === -1) return sendProblem(response, 404, 'Not Found')
    const found = items[index] as NewsItem

    if (request.method === 'GET') return sendJson(response, 200, found)
    if (request.method === 'PATCH') {
      const changes = JSON.parse(request.body) as Record<string, unknown>
      const given = (['title', 'body', 'author'] as const).filter((f) => f in changes)
      const errors = fieldErrors(changes, given)
      if (Object.keys(errors).length > 0) {
        return sendProblem(response, 422, 'Unprocessable Content', errors)
      }
      const updated = { ...found, ...Object.fromEntries(given.map((f) => [f, changes[f]])) }
      items[index] = updated
      return sendJson(response, 200, updated)
    }
    if (request.method === 'DELETE') {
      items.splice(index, 1)
      response.writeHead(204).end()
      return
    }
    sendProblem(response, 405, 'Method Not Allowed')
  }

  const server = await startLocalServer((request, response) =>
    (standIn.override ?? contract)(request, response),
  )
  const standIn: NewsApiStandIn = { ...server, items, override: undefined }
  return standIn
}

function fieldErrors(
  values: Record<string, unknown>,
  fields: readonly (keyof typeof REQUIRED)[],
): Record<string, string> {
  const errors: Record<string, string> = {}
  for (const field of fields) {
    const value = values[field]
    if (typeof value !== 'string' || value.trim() === '') errors[field] = REQUIRED[field]
  }
  return errors
}
