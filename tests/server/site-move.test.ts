import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import type { NewsItem } from '@/domain/news-item.entity'
import { openDatabase } from '@/adapters/sql/database'
import {
  composeTestServer,
  createPostThroughApi,
  JSON_HEADERS,
  tempDir,
  TEST_DATABASES,
  TEST_POSTGRES_URL,
  type TestDatabase,
} from './server-fixture'
import { startServerProcess, type ServerProcess } from './server-process'
import { CLI_TIMEOUT, news, newsProgram } from './support/news-command'
import { closeReaders, openStream } from './support/stream-reader'
import { POSTGRES_SKIPPED } from '../adapters/sql/sql-test-stores'

/**
 * Moving a site between engines through `npm run news -- export | import | copy | backup`, run
 * as an operator runs them (the compiled command), and read back through the real server.
 */

if (TEST_POSTGRES_URL === undefined) console.warn(POSTGRES_SKIPPED)

const postgresKind = TEST_DATABASES.find((kind) => kind.name === 'PostgreSQL')
const disposals: TestDatabase[] = []
const running: ServerProcess[] = []

async function newPostgres(): Promise<string> {
  if (postgresKind === undefined) throw new Error(POSTGRES_SKIPPED)
  const database = await postgresKind.create()
  disposals.push(database)
  return database.url
}

function newSqlite(): string {
  return `sqlite:${join(tempDir('newswire-move-'), 'news.db')}`
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 3))
const WORDS = ['harbour', 'robots', 'library', 'festival']
const CONTACT_EMAIL = 'visitor@example.org'

/**
 * A site with something of everything: more posts than a page, edits, a long history, the
 * trash, a put-back post, a restored revision, an idempotency key and a contact message.
 */
async function seedSite(url: string): Promise<void> {
  const server = await composeTestServer({ DATABASE_URL: url })
  try {
    const inject = server.app.inject.bind(server.app)
    const items: NewsItem[] = []
    for (let i = 0; i < 30; i++) {
      const word = WORDS[i % WORDS.length] ?? ''
      items.push(
        await createPostThroughApi(server, `Story ${i} of the ${word}`, {
          body: `Everything about the ${word}, part ${i}. Ærøskøbing, naïve café.`,
          author: i % 2 === 0 ? 'Ada' : 'Zoë',
        }),
      )
      await tick()
    }
    const id = (i: number) => items[i]?._id ?? ''
    for (let edit = 0; edit < 25; edit++) {
      const response = await inject({
        method: 'PATCH',
        url: `/api/news/${id(3)}`,
        headers: JSON_HEADERS,
        payload: { body: `Draft ${edit} of the harbour story.` },
      })
      expect(response.statusCode).toBe(200)
    }
    for (const i of [1, 2]) {
      await inject({
        method: 'PATCH',
        url: `/api/news/${id(i)}`,
        headers: JSON_HEADERS,
        payload: { title: `Story ${i}, corrected` },
      })
    }
    for (const i of [5, 6, 7, 8, 9]) {
      expect((await inject({ method: 'DELETE', url: `/api/news/${id(i)}` })).statusCode).toBe(204)
      await tick()
    }
    await inject({ method: 'POST', url: `/api/news/${id(5)}/restore` })
    await inject({ method: 'POST', url: `/api/news/${id(1)}/revisions/1/restore` })
    await inject({
      method: 'POST',
      url: '/api/news',
      headers: { ...JSON_HEADERS, 'idempotency-key': 'move-test-0001' },
      payload: { title: 'Sent once', body: 'Even if sent twice.', author: 'Ada' },
    })
  } finally {
    await server.close()
  }
  const database = await openDatabase(url)
  try {
    await sql`
      insert into outbox_message (name, email, message, received_at)
      values ('A visitor', ${CONTACT_EMAIL}, 'Hello there', '2026-05-01T12:00:00.000Z')
    `.execute(database.db)
  } finally {
    await database.close()
  }
}

async function startServer(url: string): Promise<string> {
  const server = await startServerProcess({
    DATABASE_URL: url,
    WRITE_RATE_LIMIT: '0',
    CREATE_RATE_LIMIT: '0',
    SEARCH_RATE_LIMIT: '0',
  })
  running.push(server)
  return server.base
}

interface Answer {
  readonly path: string
  readonly status: number
  readonly etag: string | null
  readonly link: string | null
  readonly body: string
}

async function read(base: string, path: string): Promise<Answer> {
  const response = await fetch(`${base}${path}`)
  return {
    path,
    status: response.status,
    etag: response.headers.get('etag'),
    link: response.headers.get('link'),
    body: await response.text(),
  }
}

/** Every page of a paged read, following its Link to the next. */
async function allPages(base: string, first: string): Promise<Answer[]> {
  const pages: Answer[] = []
  for (let path: string | undefined = first; path !== undefined;) {
    const page = await read(base, path)
    pages.push(page)
    path = /<([^>]+)>;\s*rel="next"/.exec(page.link ?? '')?.[1]
  }
  return pages
}

/**
 * What the API answers to every read of the site: the lists and the trash page by page, each
 * post and its whole history, searches, with their ETags and Links, and the live stream's replay.
 */
async function everyRead(base: string): Promise<unknown[]> {
  const lists = [
    ...(await allPages(base, '/api/news')),
    ...(await allPages(base, '/api/news?limit=7')),
    ...(await allPages(base, '/api/trash?limit=2')),
    ...(await allPages(base, '/api/news?q=harbour&limit=3')),
    ...(await allPages(base, '/api/news?q=zoe%20robots')),
    ...(await allPages(base, '/api/news?q=aeroskobing&limit=20')),
  ]
  const ids = new Set(
    lists.flatMap((page) => (JSON.parse(page.body) as NewsItem[]).map((item) => item._id)),
  )
  const posts: Answer[] = []
  for (const id of [...ids].sort()) {
    posts.push(await read(base, `/api/news/${id}`))
    posts.push(...(await allPages(base, `/api/news/${id}/revisions?limit=10`)))
  }
  const stream = await openStream(base, { lastEventId: '30' })
  const replay = (await stream.messagesUpTo(8)).map(({ id, event, data }) => ({ id, event, data }))
  stream.close()
  expect(posts.length).toBeGreaterThan(30)
  return [lists, posts, replay]
}

/** The site as the API serves it from `url`, read through a real server process. */
async function served(url: string): Promise<unknown[]> {
  const base = await startServer(url)
  return everyRead(base)
}

function archiveLines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

let source: string
let sourceReads: unknown[]

beforeAll(async () => {
  source = newSqlite()
  await seedSite(source)
}, CLI_TIMEOUT)

afterEach(() => {
  closeReaders()
  for (const server of running.splice(0)) server.child.kill('SIGKILL')
})

afterAll(async () => {
  for (const database of disposals.splice(0)) await database.dispose()
})

describe('npm run news -- export and import', { timeout: 4 * CLI_TIMEOUT }, () => {
  it.skipIf(TEST_POSTGRES_URL === undefined)(
    'SQLite exported to a file and imported into PostgreSQL answers every API read as before',
    async () => {
      const file = join(tempDir('newswire-move-'), 'archives', 'site.jsonl')
      const exported = await news(source, 'export', file)
      expect(exported.code, exported.stderr).toBe(0)
      expect(exported.stdout).toMatch(/news\s+31 rows\s+sha256 [0-9a-f]{64}/)

      const target = await newPostgres()
      const imported = await news(target, 'import', file)
      expect(imported.code, imported.stderr).toBe(0)
      expect(imported.stdout).toContain('Verified: the same rows and digests as the archive.')

      sourceReads = await served(source)
      const base = await startServer(target)
      expect(await everyRead(base)).toEqual(sourceReads)

      // The copy goes on as the original would: the next post is numbered after the others.
      const created = await fetch(`${base}/api/news`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: JSON.stringify({ title: 'After the move', body: 'On PostgreSQL.', author: 'Ada' }),
      })
      expect(created.status).toBe(201)
      const [first] = (await (await fetch(`${base}/api/news?q=after%20move`)).json()) as NewsItem[]
      expect(first?.title).toBe('After the move')
    },
  )

  it.skipIf(TEST_POSTGRES_URL === undefined)(
    'copy checks SQLite against PostgreSQL by counts and digests, and PostgreSQL exported to standard output loads into SQLite as it was',
    async () => {
      const postgres = await newPostgres()
      const copied = await news(source, 'copy', '--to', postgres)
      expect(copied.code, copied.stderr).toBe(0)
      expect(copied.stdout).toContain('Verified: the same rows and digests as the source.')
      for (const table of ['news', 'news_revision', 'news_change', 'outbox_message']) {
        const lines = copied.stdout.split('\n').filter((line) => line.includes(` ${table} `))
        expect(lines, table).toHaveLength(2)
        expect(lines[0], table).toBe(lines[1])
      }

      const exported = await newsProgram(postgres, 'export')
      expect(exported.code, exported.stderr).toBe(0)
      expect(exported.stderr).toContain('to standard output')
      const file = join(tempDir('newswire-move-'), 'from-postgres.jsonl')
      writeFileSync(file, exported.stdout)
      expect(archiveLines(file)[0]).toMatchObject({ format: 'newswire-site', engine: 'postgres' })

      const back = newSqlite()
      const imported = await news(back, 'import', file)
      expect(imported.code, imported.stderr).toBe(0)

      sourceReads ??= await served(source)
      const [fromPostgres, fromSqlite] = await Promise.all([served(postgres), served(back)])
      expect(fromPostgres).toEqual(sourceReads)
      expect(fromSqlite).toEqual(sourceReads)
    },
  )

  it('refuses a database that already holds a site, and says so', async () => {
    const file = join(tempDir('newswire-move-'), 'site.jsonl')
    expect((await news(source, 'export', file)).code).toBe(0)
    const refused = await news(source, 'import', file)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/^news: the target database is not empty \(31 row\(s\) of news,/)
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1)

    const other = newSqlite()
    await seedSite(other)
    const copy = await news(source, 'copy', '--to', other.slice('sqlite:'.length))
    expect(copy.code).toBe(1)
    expect(copy.stderr).toMatch(/the target database is not empty/)
  })

  it.skipIf(TEST_POSTGRES_URL === undefined)(
    'refuses a PostgreSQL database that already holds a site',
    async () => {
      const target = await newPostgres()
      expect((await news(source, 'copy', '--to', target)).code).toBe(0)
      const again = await news(source, 'copy', '--to', target)
      expect(again.code).toBe(1)
      expect(again.stderr).toMatch(/the target database is not empty/)
    },
  )

  it('leaves the contact messages out unless --with-outbox is given', async () => {
    const folder = tempDir('newswire-move-')
    const without = join(folder, 'without.jsonl')
    const withOutbox = join(folder, 'with.jsonl')
    expect((await news(source, 'export', without)).code).toBe(0)
    expect((await news(source, 'export', withOutbox, '--with-outbox')).code).toBe(0)

    expect(readFileSync(without, 'utf8')).not.toContain(CONTACT_EMAIL)
    expect(archiveLines(without)[0]).toMatchObject({ outbox: false })
    const message = archiveLines(withOutbox).find((line) => line.table === 'outbox_message')
    expect(message?.row).toMatchObject({ id: 1, email: CONTACT_EMAIL })

    const targets = [newSqlite(), ...(TEST_POSTGRES_URL === undefined ? [] : [await newPostgres()])]
    for (const target of targets) {
      expect((await news(target, 'import', withOutbox)).code).toBe(0)
      const database = await openDatabase(target)
      try {
        // The next message is numbered after the ones loaded.
        const { rows } = await sql<{ id: number }>`
          insert into outbox_message (name, email, message, received_at)
          values ('Another', 'other@example.org', 'Hi', '2026-05-02T12:00:00.000Z') returning id
        `.execute(database.db)
        expect(rows.map((row) => Number(row.id))).toEqual([2])
      } finally {
        await database.close()
      }
    }
  })

  it('refuses an archive of another format version, or cut short, creating nothing', async () => {
    const folder = tempDir('newswire-move-')
    const file = join(folder, 'site.jsonl')
    expect((await news(source, 'export', file)).code).toBe(0)
    const [header, ...rest] = readFileSync(file, 'utf8').trimEnd().split('\n')
    const future = join(folder, 'future.jsonl')
    writeFileSync(future, [header?.replace('"version":1', '"version":2'), ...rest].join('\n'))

    const target = join(folder, 'new', 'news.db')
    const refused = await news(`sqlite:${target}`, 'import', future)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(
      /^news: the archive is in format version 2; this NewsWire reads version 1\n$/,
    )
    expect(existsSync(target)).toBe(false)

    const cut = join(folder, 'cut.jsonl')
    writeFileSync(cut, [header, ...rest.slice(0, -1)].join('\n'))
    const truncated = await news(`sqlite:${target}`, 'import', cut)
    expect(truncated.code).toBe(1)
    expect(truncated.stderr).toMatch(/the file is cut short.*now holds part of the site/)
  })

  it('exits 1 when the loaded site does not match the digests the archive ends with', async () => {
    const folder = tempDir('newswire-move-')
    const file = join(folder, 'site.jsonl')
    expect((await news(source, 'export', file)).code).toBe(0)
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n')
    const end = JSON.parse(lines.pop() ?? '') as { end: { sha256: Record<string, string> } }
    end.end.sha256.news_revision = '0'.repeat(64)
    const tampered = join(folder, 'tampered.jsonl')
    writeFileSync(tampered, [...lines, JSON.stringify(end)].join('\n'))

    const { code, stdout, stderr } = await news(newSqlite(), 'import', tampered)
    expect(code).toBe(1)
    expect(stdout).toMatch(/news_revision\s+\d+ rows\s+sha256 [0-9a-f]{64}/)
    expect(stderr).toBe(
      'news: the copy differs from the archive in news_revision: do not switch to it\n',
    )
  })
})

describe('npm run news -- backup', { timeout: CLI_TIMEOUT }, () => {
  it('writes an online backup of SQLite into a folder it creates', async () => {
    const file = join(tempDir('newswire-move-'), 'backups', 'daily', 'news.db')
    const { code, stdout, stderr } = await news(source, 'backup', file)
    expect(code, stderr).toBe(0)
    expect(stdout).toMatch(/^Backed up sqlite:.* to .*news\.db \(\d+ pages\)\.\n$/)
    const backup = new SQLite(file, { readonly: true })
    try {
      expect(backup.prepare('select count(*) as n from news').get()).toEqual({ n: 31 })
    } finally {
      backup.close()
    }
  })

  it.skipIf(TEST_POSTGRES_URL === undefined)(
    'on PostgreSQL says to use pg_dump, and exits 1 having written nothing',
    async () => {
      const file = join(tempDir('newswire-move-'), 'backup.db')
      const { code, stdout, stderr } = await news(await newPostgres(), 'backup', file)
      expect(code).toBe(1)
      expect(stdout).toBe('')
      expect(stderr).toMatch(/use pg_dump/)
      expect(existsSync(file)).toBe(false)
    },
  )
})
