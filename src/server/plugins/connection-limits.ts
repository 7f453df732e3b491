import type { Server, ServerOptions, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { normalizeIP } from '@fastify/rate-limit'
import type { Timeouts } from '@/server/services/server-config'
import { problem } from '@/server/services/problem'
import { PROBLEM_CONTENT_TYPE } from '@/contract/problem.schema'

/**
 * How often Node looks for requests past their timeouts. Its default, 30 s, let a slow client
 * hold a socket for up to 30 s past the timeout; a sweep a second costs a walk over the open
 * connections. A slow request is cut within its timeout plus this.
 */
export const CONNECTIONS_CHECKING_INTERVAL_MS = 1000

/**
 * The client timeouts as Fastify's server options: Fastify sets `requestTimeout` and
 * `keepAliveTimeout` on the server itself (its defaults are none and 72 s), and hands `http` to
 * `http.createServer`, which alone takes the headers timeout and the checking interval.
 */
export function timeoutOptions(timeouts: Timeouts): {
  readonly requestTimeout: number
  readonly keepAliveTimeout: number
  readonly http: ServerOptions
} {
  return {
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS,
    },
  }
}

export interface ConnectionCaps {
  /** Open connections at most; Node closes each one past it as it arrives. */
  readonly total: number
  /** Open connections per client address at most; 0 turns this cap off. */
  readonly perAddress: number
}

/**
 * Caps the connections `server` holds, so that slow or idle sockets cannot starve other
 * visitors: one address can hold `perAddress` at most, and everyone together `total`. IPv6
 * addresses are counted by their /64, as the write limit counts them, since one host commonly
 * owns a whole /64.
 */
export function capConnections(server: Server, caps: ConnectionCaps): void {
  server.maxConnections = caps.total
  if (caps.perAddress === 0) return
  const open = new Map<string, number>()
  server.on('connection', (socket: Socket) => {
    if (socket.remoteAddress === undefined) return
    const address = normalizeIP(socket.remoteAddress)
    const count = (open.get(address) ?? 0) + 1
    if (count > caps.perAddress) {
      socket.destroy()
      return
    }
    open.set(address, count)
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1
      if (left === 0) open.delete(address)
      else open.set(address, left)
    })
  })
}

/**
 * Counts the responses of one kind a server holds open (its live streams), up to `cap`, so
 * that they can never take the connections that requests need. A place is taken before any
 * work, and given back when the response closes, however it ends.
 */
export class OpenResponses {
  private open = 0

  constructor(readonly cap: number) {}

  /** Takes a place for `response` until it closes; false when every place is taken. */
  take(response: ServerResponse): boolean {
    if (this.open >= this.cap) return false
    this.open += 1
    response.once('close', () => {
      this.open -= 1
    })
    return true
  }

  get size(): number {
    return this.open
  }
}

const CLIENT_ERRORS: Readonly<Record<string, { status: number; detail: string }>> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    detail: 'The request did not arrive in time; the connection is closed.',
  },
  HPE_HEADER_OVERFLOW: { status: 431, detail: 'The request headers are too large.' },
}

/**
 * Answers a request Node could not read (too slow, too large headers, not HTTP) with a problem,
 * as every other error, then closes the connection. Fastify's default answers its own JSON.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const known = CLIENT_ERRORS[error.code ?? '']
  const status = known?.status ?? 400
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const body = JSON.stringify(problem(status, known?.detail ?? 'The request is not valid HTTP.'))
  socket.end(
    `HTTP/1.1 ${status} ${problem(status, '').title}\r\n` +
      `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  )
}
