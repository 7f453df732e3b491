import { Agent, request, type IncomingMessage } from 'node:http'
import { performance } from 'node:perf_hooks'

/** One open GET /api/events as the benchmark holds it: it counts what arrives, parses nothing. */
export interface BenchStream {
  readonly status: number
  /** Change events received so far. */
  readonly changes: () => number
  /** Bytes received so far. */
  readonly bytes: () => number
  /** Resolves once the server has ended the answer or the connection. */
  readonly ended: Promise<void>
  close(): void
}

const CHANGE = Buffer.from('event: change')
const READY = Buffer.from('event: ready')
/** A request the server has not answered within this is given up (status 0). */
const ANSWER_TIMEOUT_MS = 10_000

/** How often `pattern` occurs in `chunk`; a message never spans two chunks' boundary here. */
function occurrences(chunk: Buffer, pattern: Buffer): number {
  let count = 0
  for (let at = chunk.indexOf(pattern); at !== -1; at = chunk.indexOf(pattern, at + 1)) count += 1
  return count
}

/**
 * Opens GET /api/events on a connection of its own from `localAddress` (any of 127.0.0.0/8),
 * as one EventSource does. `query` is appended to the path (e.g. `?since=5`). A refusal, or a
 * connection the server closes before answering, resolves with its status (0 for the latter).
 */
export function openBenchStream(
  base: string,
  localAddress: string,
  query = '',
  /** Called with each chunk as it arrives, and when (performance.now()). */
  onChunk?: (chunk: Buffer, at: number) => void,
): Promise<BenchStream> {
  return new Promise((resolve) => {
    const outgoing = request(`${base}/api/events${query}`, {
      agent: false,
      localAddress,
      headers: { accept: 'text/event-stream' },
    })
    const refused = (status: number): BenchStream => ({
      status,
      changes: () => 0,
      bytes: () => 0,
      ended: Promise.resolve(),
      close: () => outgoing.destroy(),
    })
    outgoing.on('error', () => resolve(refused(0)))
    outgoing.setTimeout(ANSWER_TIMEOUT_MS, () => outgoing.destroy())
    outgoing.on('response', (response: IncomingMessage) => {
      // A stream is quiet between heartbeats: only its answer is timed.
      outgoing.setTimeout(0)
      let changes = 0
      let bytes = 0
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length
        changes += occurrences(chunk, CHANGE)
        onChunk?.(chunk, performance.now())
      })
      response.on('error', () => undefined)
      const ended = new Promise<void>((settle) => {
        response.once('end', settle)
        response.once('close', settle)
      })
      resolve({
        status: response.statusCode ?? 0,
        changes: () => changes,
        bytes: () => bytes,
        ended,
        close: () => outgoing.destroy(),
      })
    })
    outgoing.end()
  })
}

/** The outcome of one resume: its status, the bytes it sent, and the seq of its `ready`. */
export interface Resume {
  readonly status: number
  readonly bytes: number
  readonly ready: number | undefined
}

/**
 * Opens GET /api/events?since=`since`, reads until its `ready` (or until the server ends it),
 * and closes it: one reconnect of a reader that comes back `since` behind.
 */
export function resumeOnce(
  base: string,
  localAddress: string,
  since: number | undefined,
): Promise<Resume> {
  return new Promise((resolve) => {
    const query = since === undefined ? '' : `?since=${since}`
    const outgoing = request(`${base}/api/events${query}`, {
      agent: false,
      localAddress,
      headers: { accept: 'text/event-stream' },
    })
    outgoing.setTimeout(ANSWER_TIMEOUT_MS, () => outgoing.destroy())
    outgoing.on('error', () => resolve({ status: 0, bytes: 0, ready: undefined }))
    outgoing.on('response', (response: IncomingMessage) => {
      let tail = Buffer.alloc(0)
      let bytes = 0
      const done = () => {
        outgoing.destroy()
        const text = tail.toString('utf8')
        const ready = /event: ready\nid: (\d+)/.exec(text)?.[1]
        resolve({
          status: response.statusCode ?? 0,
          bytes,
          ready: ready === undefined ? undefined : Number(ready),
        })
      }
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length
        // Only the end, where the ready comes, is kept; it may span two chunks.
        tail = Buffer.concat([tail, chunk]).subarray(-4096)
        if (tail.includes(READY)) done()
      })
      response.on('error', () => undefined)
      response.once('end', done)
      response.once('close', done)
    })
    outgoing.end()
  })
}

/** One keep-alive connection from 127.0.0.1, as one visitor's browser holds it. */
export function visitorAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 1 })
}

/** One request on `agent` (or a connection of its own): its status (0 if refused) and ms. */
export function timedRequest(
  base: string,
  path: string,
  options: { agent?: Agent; method?: string; body?: string } = {},
): Promise<{ status: number; ms: number }> {
  const started = performance.now()
  return new Promise((resolve) => {
    const outgoing = request(`${base}${path}`, {
      agent: options.agent ?? false,
      method: options.method ?? 'GET',
      headers: options.body === undefined ? {} : { 'content-type': 'application/json' },
    })
    const settle = (status: number) => resolve({ status, ms: performance.now() - started })
    outgoing.setTimeout(ANSWER_TIMEOUT_MS, () => outgoing.destroy())
    outgoing.on('error', () => settle(0))
    outgoing.on('response', (response) => {
      response.resume()
      response.once('end', () => settle(response.statusCode ?? 0))
      response.once('error', () => settle(0))
    })
    outgoing.end(options.body)
  })
}

/** The `fraction` quantile (0.5, 0.99) of `values`, in their unit; NaN when empty. */
export function quantile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] as number
}
