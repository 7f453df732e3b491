import type { NewsItem } from '@/domain/news-item.entity'
import {
  PURGE_LOG_MESSAGE,
  type ComposedServer,
  type ComposeOptions,
} from '@/composition/server/server.composition'
import {
  postNews,
  composeTestServer,
  logCapture,
  describeOnDatabases,
  useDatabase,
} from './server-fixture'

const DAY = 24 * 60 * 60 * 1000
const HOUR = 60 * 60 * 1000

describeOnDatabases('purging on $name', (kind) => {
  const open: ComposedServer[] = []
  const database = useDatabase(kind, { perTest: true })
  /** The purge's clock: tests move it forward; posts are still dated by the real one. */
  let offsetMs = 0
  let log: ReturnType<typeof logCapture>

  beforeEach(() => {
    offsetMs = 0
    log = logCapture()
  })

  afterEach(async () => {
    for (const server of open.splice(0)) await server.close()
  })

  async function start(env: Record<string, string> = {}, options: ComposeOptions = {}) {
    const server = await composeTestServer(
      { DATABASE_URL: database.url, ...env },
      {
        now: () => new Date(Date.now() + offsetMs),
        logger: { level: 'info', stream: log.stream },
        ...options,
      },
    )
    open.push(server)
    return server
  }

  const create = (server: ComposedServer, title: string, key?: string) =>
    postNews(
      server.app,
      { title, body: `About ${title}.`, author: 'Ada' },
      {
        headers: key === undefined ? {} : { 'idempotency-key': key },
      },
    )

  async function trashed(server: ComposedServer, title: string): Promise<NewsItem> {
    const item = (await create(server, title)).json<NewsItem>()
    expect(
      (await server.app.inject({ method: 'DELETE', url: `/api/news/${item._id}` })).statusCode,
    ).toBe(204)
    return item
  }

  const trashIds = async (server: ComposedServer) =>
    (await server.app.inject('/api/trash?limit=100')).json<NewsItem[]>().map((item) => item._id)

  const purgeLogs = () => log.lines().filter((line) => line.msg === PURGE_LOG_MESSAGE)

  it('purges a post trashed more than TRASH_DAYS ago, with its history, and nothing younger', async () => {
    const server = await start({ TRASH_DAYS: '7' })
    const kept = (await create(server, 'Kept')).json<NewsItem>()
    const dropped = await trashed(server, 'Dropped')

    offsetMs = 6 * DAY
    expect(await server.purge()).toEqual({ posts: 0, keys: 0 })
    expect(await trashIds(server)).toEqual([dropped._id])
    expect((await server.app.inject(`/api/news/${dropped._id}/revisions`)).statusCode).toBe(200)

    offsetMs = 7 * DAY + HOUR
    expect(await server.purge()).toEqual({ posts: 1, keys: 0 })
    expect(await trashIds(server)).toEqual([])
    expect((await server.app.inject(`/api/news/${dropped._id}/revisions`)).statusCode).toBe(404)
    const restore = await server.app.inject({
      method: 'POST',
      url: `/api/news/${dropped._id}/restore`,
    })
    expect(restore.statusCode).toBe(404)
    expect((await server.app.inject(`/api/news/${kept._id}`)).json()).toEqual(kept)
    expect((await server.app.inject(`/api/news/${kept._id}/revisions`)).json()).toHaveLength(1)

    expect(purgeLogs().at(-1)).toMatchObject({ level: 30, posts: 1, keys: 0, trashDays: 7 })
  })

  it('purges idempotency keys after 24 hours, so that the key is free again', async () => {
    const server = await start()
    const key = 'submission-1'
    expect((await create(server, 'First', key)).statusCode).toBe(201)

    offsetMs = 23 * HOUR
    expect(await server.purge()).toEqual({ posts: 0, keys: 0 })
    expect((await create(server, 'Another post', key)).statusCode).toBe(422)

    offsetMs = 25 * HOUR
    expect(await server.purge()).toEqual({ posts: 0, keys: 1 })
    const reused = await create(server, 'Another post', key)
    expect(reused.statusCode).toBe(201)
    expect(reused.json()).toMatchObject({ title: 'Another post', revision: 1 })
  })

  it('purges once at start, and logs what it purged', async () => {
    const first = await start()
    const dropped = await trashed(first, 'Old news')
    await first.close()
    open.splice(0)

    offsetMs = 31 * DAY
    const second = await start()
    expect(await trashIds(second)).toEqual([])
    expect((await second.app.inject(`/api/news/${dropped._id}/revisions`)).statusCode).toBe(404)
    expect(purgeLogs().map((line) => [line.posts, line.keys, line.trashDays])).toEqual([
      [0, 0, 30],
      [1, 0, 30],
    ])
  })

  it('purges again on its schedule while the server runs, and stops when it closes', async () => {
    const server = await start({}, { purgeEveryMs: 20 })
    await trashed(server, 'Soon gone')
    offsetMs = 31 * DAY
    const deadline = Date.now() + 5_000
    while ((await trashIds(server)).length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(await trashIds(server)).toEqual([])

    await server.close()
    open.splice(0)
    const runs = purgeLogs().length
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(purgeLogs()).toHaveLength(runs)
    expect(log.lines().filter((line) => line.level === 50)).toEqual([])
  })

  it('logs a failed purge and answers that nothing was purged, without failing the server', async () => {
    const server = await start()
    await server.database.close()
    expect(await server.purge()).toEqual({ posts: 0, keys: 0 })
    expect(log.lines().filter((line) => line.msg === 'purge failed')).toHaveLength(1)
  })
})
