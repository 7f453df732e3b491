import { randomUUID } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsRevision } from '@/domain/news-revision.entity'
import { describeOnDatabases } from './server-fixture'
import { useServerProcesses } from './server-process'

/** Clients that send and read at once, each publishing and editing posts of its own. */
const CLIENTS = 6
/** How long the load runs before, between and after the two restarts. */
const STEADY_MS = 1_000
/** Edits per post, at most, so that a post's whole history fits one page of revisions. */
const EDITS_PER_POST = 5

const processes = useServerProcesses()
const { start } = processes

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** What went wrong, by kind; every list must stay empty. */
interface Faults {
  /** A 5xx answer. */
  readonly serverErrors: string[]
  /** A connection that was open and then dropped before its answer. */
  readonly dropped: string[]
  /** An answer that was not the one the request should get (a 4xx, or a stale read). */
  readonly wrong: string[]
}

interface Answer {
  readonly status: number
  readonly body: string
}

interface Sent {
  readonly method?: string
  readonly headers?: Record<string, string>
  readonly body?: string
}

/**
 * A load balancer over the servers in `pool`, in turn, with one connection per request (as
 * nginx proxies by default), retrying as a careful balancer does:
 * - a refused connection: the server has stopped listening and never saw the request, so it
 *   goes to the next server;
 * - a connection reset before any byte of an answer (one the server had accepted but not yet
 *   read when it stopped): the request goes to the next server too, since every request here is
 *   safe to send twice (reads, creates with an Idempotency-Key, edits with If-Match).
 * A connection lost once an answer has begun is a fault, and so is a 5xx.
 */
class Balancer {
  readonly pool: string[] = []
  refused = 0
  reset = 0
  private turn = 0

  constructor(private readonly faults: Faults) {}

  /** The answer, and whether an earlier attempt may have reached a server. */
  async send(path: string, sent: Sent = {}): Promise<(Answer & { resent: boolean }) | undefined> {
    const what = `${sent.method ?? 'GET'} ${path}`
    let resent = false
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const base = this.pool[this.turn++ % this.pool.length] as string
      try {
        const answer = await exchange(`${base}${path}`, sent)
        if (answer.status >= 500) {
          this.faults.serverErrors.push(`${what}: ${answer.status} ${answer.body}`)
          return undefined
        }
        return { ...answer, resent }
      } catch (error) {
        const { code, answering } = error as { code?: unknown; answering?: boolean }
        if (answering === true || (code !== 'ECONNREFUSED' && code !== 'ECONNRESET')) {
          this.faults.dropped.push(`${what}: ${String(code)} ${String(error)}`)
          return undefined
        }
        if (code === 'ECONNRESET') {
          this.reset += 1
          resent = true
        } else this.refused += 1
        // Every server may be refusing for a moment while a replacement starts.
        if (attempt % this.pool.length === this.pool.length - 1) await pause(20)
      }
    }
    throw new Error(`no server accepted ${what}`)
  }
}

/** One request on a connection of its own; a failure once the answer began is `answering`. */
function exchange(url: string, sent: Sent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: sent.method, headers: sent.headers, agent: false })
    request.on('error', reject)
    request.on('response', (response) => {
      let body = ''
      const lost = (error: Error) => reject(Object.assign(error, { answering: true }))
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
      response.on('error', lost)
      response.on('aborted', () => lost(new Error('the answer was cut short')))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    })
    request.end(sent.body)
  })
}

/** A post one client publishes and edits, with the last answer the servers acknowledged. */
interface Owned {
  latest: NewsItem
  writes: number
}

/**
 * One client: creates posts with an Idempotency-Key, edits them, reads the first page and reads
 * its own posts back, until `stopped`. Every answered write is remembered in `owned`.
 */
async function client(
  name: string,
  balancer: Balancer,
  faults: Faults,
  owned: Map<string, Owned>,
  stopped: () => boolean,
): Promise<void> {
  const json = { 'content-type': 'application/json' }
  const mine: string[] = []
  for (let step = 0; !stopped(); step += 1) {
    const editable = mine.filter((id) => (owned.get(id)?.writes ?? 0) <= EDITS_PER_POST)
    const kind = step % 10
    if (mine.length === 0 || kind === 0 || (kind === 1 && editable.length === 0)) {
      const title = `${name} post ${mine.length}`
      const response = await balancer.send('/api/news', {
        method: 'POST',
        headers: { ...json, 'idempotency-key': randomUUID() },
        body: JSON.stringify({ title, body: 'Sent during a rolling restart.', author: 'Ada' }),
      })
      if (response === undefined) continue
      if (response.status !== 201) faults.wrong.push(`create ${title}: ${response.status}`)
      else {
        const item = JSON.parse(response.body) as NewsItem
        owned.set(item._id, { latest: item, writes: 1 })
        mine.push(item._id)
      }
    } else if (kind === 1 || kind === 2) {
      const id = editable[step % editable.length] as string
      const post = owned.get(id) as Owned
      const title = `${name} edit ${post.writes}`
      const revision = post.latest.revision
      const response = await balancer.send(`/api/news/${id}`, {
        method: 'PATCH',
        headers: { ...json, 'if-match': `"rev-${revision}"` },
        body: JSON.stringify({ title }),
      })
      if (response === undefined) continue
      let edited = response.status === 200 ? (JSON.parse(response.body) as NewsItem) : undefined
      if (response.status === 412 && response.resent) {
        // The first attempt may have been made before its connection was lost: look.
        const now = await balancer.send(`/api/news/${id}`)
        const item = now?.status === 200 ? (JSON.parse(now.body) as NewsItem) : undefined
        if (item?.revision === revision + 1 && item.title === title) edited = item
      }
      if (edited === undefined) faults.wrong.push(`edit ${id}: ${response.status}`)
      else owned.set(id, { latest: edited, writes: post.writes + 1 })
    } else if (kind % 2 === 1) {
      const response = await balancer.send('/api/news')
      if (response !== undefined && response.status !== 200) {
        faults.wrong.push(`first page: ${response.status}`)
      }
    } else {
      // A read that begins after a write was answered sees it, on whichever server.
      const id = mine[step % mine.length] as string
      const expected = owned.get(id)?.latest
      const response = await balancer.send(`/api/news/${id}`)
      if (response === undefined) continue
      const item = response.status === 200 ? (JSON.parse(response.body) as NewsItem) : undefined
      if (item?.revision !== expected?.revision) {
        faults.wrong.push(`read ${id}: ${response.status}, revision ${item?.revision}`)
      }
    }
  }
}

/** Every post on the site, page by page. */
async function allPosts(base: string): Promise<NewsItem[]> {
  const posts: NewsItem[] = []
  for (let path: string | undefined = '/api/news?limit=100'; path !== undefined;) {
    const response: Response = await fetch(`${base}${path}`)
    expect(response.status).toBe(200)
    posts.push(...((await response.json()) as NewsItem[]))
    path = response.headers.get('link')?.match(/^<([^>]+)>; rel="next"$/)?.[1]
  }
  return posts
}

describeOnDatabases('a rolling restart of two servers on one $name database', (kind) => {
  it('answers no 5xx, drops no connection and keeps every acknowledged write', async () => {
    const database = await kind.create()
    try {
      const env = { DATABASE_URL: database.url, WRITE_RATE_LIMIT: '0' }
      const faults: Faults = { serverErrors: [], dropped: [], wrong: [] }
      const balancer = new Balancer(faults)
      const owned = new Map<string, Owned>()
      const servers = await Promise.all([start(env), start(env)])
      balancer.pool.push(...servers.map((server) => server.base))

      let stopped = false
      const clients = Array.from({ length: CLIENTS }, (_, i) =>
        client(`Client ${i}`, balancer, faults, owned, () => stopped),
      )
      await pause(STEADY_MS)

      for (const [index, old] of servers.entries()) {
        // The balancer still sends to the old server until it has exited, as one that has not
        // yet noticed; its replacement joins the pool once it listens.
        old.child.kill('SIGTERM')
        const replacement = await start(env)
        balancer.pool.push(replacement.base)
        expect(await old.exited, `server ${index} exit code`).toBe(0)
        balancer.pool.splice(balancer.pool.indexOf(old.base), 1)
        await pause(STEADY_MS)
      }
      stopped = true
      await Promise.all(clients)

      expect(faults).toEqual({ serverErrors: [], dropped: [], wrong: [] })
      // The stopped servers stayed in the pool until they had exited: the clients met them.
      expect(balancer.refused).toBeGreaterThan(0)
      expect(owned.size).toBeGreaterThan(CLIENTS)

      const [base] = balancer.pool as [string]
      const posts = await allPosts(base)
      expect(posts.map((post) => post._id).sort()).toEqual([...owned.keys()].sort())
      for (const [id, { latest, writes }] of owned) {
        expect(posts.find((post) => post._id === id)).toEqual(latest)
        const response = await fetch(`${base}/api/news/${id}/revisions`)
        expect(((await response.json()) as NewsRevision[]).length, id).toBe(writes)
      }
    } finally {
      await processes.stopAll()
      await database.dispose()
    }
  }, 60_000)
})
