import { connect, type AddressInfo, type Socket } from 'node:net'
import { join } from 'node:path'
import { sql } from 'kysely'
import type { ComposedServer } from '@/composition/server/server.composition'
import { composeTestServer, tempDir } from './server-fixture'
import { listening } from './support/live-servers'
import { closeReaders, openReady, waitUntil } from './support/stream-reader'

/** Short, so that a stalled reader is judged within a second. */
const HEARTBEAT_MS = 150
/** Each change as the stream frames it takes about this many bytes. */
const CHANGE_BYTES = 150

afterEach(closeReaders)

/**
 * A reader that opens GET /api/events on a raw socket, reads the answer's first bytes (its
 * head and `ready`), then never reads again: its system buffers fill, then the server's.
 */
function stalledReader(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port })
    socket.on('error', () => undefined)
    socket.once('connect', () =>
      socket.write(
        'GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n',
      ),
    )
    socket.once('data', (chunk: Buffer) => {
      socket.pause()
      if (chunk.toString('latin1').includes('event: ready')) resolve(socket)
      else reject(new Error(`no ready: ${chunk.toString('latin1')}`))
    })
  })
}

/**
 * Appends `count` edits of one post to the change log in one transaction, as the store logs a
 * write's changes (raising site_version by as many), in batches of a thousand rows: the stream
 * only relays the log, and tens of thousands of real writes would take minutes.
 */
async function writeChanges(server: ComposedServer, count: number): Promise<void> {
  await server.database.db.transaction().execute(async (trx) => {
    const raised = await trx
      .updateTable('site_version')
      .set({ version: sql<number>`version + ${count}` })
      .returning('version')
      .executeTakeFirstOrThrow()
    const first = Number(raised.version) - count + 1
    const at = new Date().toISOString()
    for (let start = 0; start < count; start += 1000) {
      const rows = Array.from({ length: Math.min(1000, count - start) }, (_, index) => ({
        seq: first + start + index,
        news_id: 'abcdefghijklmnopqrstuv',
        kind: 'edited',
        revision: first + start + index,
        at,
      }))
      await trx.insertInto('news_change').values(rows).execute()
    }
  })
}

function connectionsOf(server: ComposedServer): Promise<number> {
  return new Promise((resolve, reject) =>
    server.app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  )
}

/** Waits until the server holds `count` connections, polling its count. */
async function connectionsDownTo(server: ComposedServer, count: number): Promise<void> {
  let held = await connectionsOf(server)
  const deadline = Date.now() + 10_000
  while (held > count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    held = await connectionsOf(server)
  }
  expect(held, 'connections the server still holds').toBe(count)
}

describe('a reader that stops reading', () => {
  let server: ComposedServer
  const sockets: Socket[] = []

  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy()
    await server.close()
  })

  async function start(events: { maxBufferedBytes?: number; heartbeatMs?: number }) {
    server = await composeTestServer(
      { DATABASE_URL: `sqlite:${join(tempDir('newswire-stalled-'), 'news.db')}` },
      { events: { heartbeatMs: HEARTBEAT_MS, pollMs: 20, ...events } },
    )
    const base = await listening(server)
    return { base, port: (server.app.server.address() as AddressInfo).port }
  }

  it('is dropped once it has taken nothing for a heartbeat while changes wait for it, even under its allowance', async () => {
    // An allowance far above what waits in the server: only the stall can drop the reader.
    const { port } = await start({ maxBufferedBytes: 64 * 1024 * 1024 })
    sockets.push(await stalledReader(port))
    // Several MB: more than the system's buffers of one connection hold.
    await writeChanges(server, 40_000)
    await connectionsDownTo(server, 0)
  }, 30_000)

  it.runIf(process.platform === 'linux')(
    'is dropped once more than its allowance waits unacknowledged in the system’s buffers, while a reader that reads keeps every change',
    async () => {
      // Time for the reader that reads, in this busy process, to take each burst between beats.
      const { base, port } = await start({ heartbeatMs: 500 })
      sockets.push(await stalledReader(port))
      const reading = await openReady(base)
      // About 1.2 MB, which the system takes whole for the stalled reader: the server's own
      // buffers stay empty, and only the system's count of bytes unacknowledged tells.
      const count = 8_000
      expect(count * CHANGE_BYTES).toBeGreaterThan(4 * 256 * 1024)
      await writeChanges(server, count)
      await waitUntil(
        () => reading.reader.messages.length >= count + 1,
        () => `${count} changes, got ${reading.reader.messages.length - 1}`,
      )
      await connectionsDownTo(server, 1)
      expect(reading.reader.isEnded()).toBe(false)
    },
    30_000,
  )
})
