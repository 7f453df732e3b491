import { connect, type Socket } from 'node:net'

/** One raw HTTP/1.1 request of a burst: its head, and its body, sent apart. */
export interface BurstRequest {
  readonly head: string
  readonly body: string
}

/** How long the heads of a burst go ahead of its bodies, unless told. */
const HEADS_AHEAD_MS = 300
/** A connection still open after this is cut: a burst ends by itself. */
const BURST_TIMEOUT_MS = 30_000

/** `POST /api/news` with a JSON `body`, as a proxy forwards it for `client`. */
export function forwardedPost(client: string, body: string): BurstRequest {
  return {
    head: [
      'POST /api/news HTTP/1.1',
      'host: 127.0.0.1',
      'connection: close',
      'content-type: application/json',
      `x-forwarded-for: ${client}`,
      `content-length: ${Buffer.byteLength(body)}`,
      '\r\n',
    ].join('\r\n'),
    body,
  }
}

/**
 * Sends every request at once to 127.0.0.1:`port`, each on a connection of its own: all the
 * connections are opened, then every head is sent, and the bodies a moment later, so that
 * every request is in flight (its head read, its body not yet) before any is answered, as a
 * client with many writes outstanding makes them. Answers each request's status (0 when the
 * connection closed without one).
 */
export async function burst(
  port: number,
  requests: readonly BurstRequest[],
  headsAheadMs = HEADS_AHEAD_MS,
): Promise<number[]> {
  const sockets = await Promise.all(
    requests.map(
      () =>
        new Promise<Socket>((resolve, reject) => {
          const socket = connect({ host: '127.0.0.1', port }, () => resolve(socket))
          socket.once('error', reject)
        }),
    ),
  )
  const statuses = sockets.map(
    (socket) =>
      new Promise<number>((resolve) => {
        let answer = ''
        socket.setEncoding('utf8')
        socket.setTimeout(BURST_TIMEOUT_MS, () => socket.destroy())
        socket.on('data', (chunk: string) => (answer += chunk))
        // A request refused before its body was sent may meet a closed connection: its answer
        // is already in.
        socket.on('error', () => undefined)
        socket.once('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)))
      }),
  )
  sockets.forEach((socket, index) => socket.write(requests[index]?.head ?? ''))
  await new Promise((resolve) => setTimeout(resolve, headsAheadMs))
  sockets.forEach((socket, index) => {
    // Written, not ended: Node's server aborts a request whose client half-closes.
    if (!socket.destroyed) socket.write(requests[index]?.body ?? '')
  })
  return Promise.all(statuses)
}

/** How many of `statuses` are `status`. */
export function countOf(statuses: readonly number[], status: number): number {
  return statuses.filter((each) => each === status).length
}

/** Sends one request to 127.0.0.1:`port` at once, head and body: its status. */
export async function send(port: number, request: BurstRequest): Promise<number> {
  return (await burst(port, [request], 0))[0] ?? 0
}
