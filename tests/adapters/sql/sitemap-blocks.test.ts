import { sql, type Kysely } from 'kysely'
import { Client } from 'pg'
import type { NewsWireSchema } from '@/adapters/sql/newswire.schema'
import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { SqlSitemapSource } from '@/adapters/sql/sitemap-blocks'
import { SqlModerationStore } from '@/adapters/sql/moderation.store'
import { sqlStore } from '../../support/news-stores'
import {
  describeOnPostgres,
  postgresSchema,
  runCleanups,
  SHARED_STORE_KINDS,
} from '../../support/test-databases'
import { databaseBefore } from './sql-test-stores'

const draft = (title: string) => ({ title, body: `About ${title}.`, author: 'Ada' })

describe.each(SHARED_STORE_KINDS.map(sqlStore))('the sitemap’s blocks on $name', (kind) => {
  const cleanups: Array<() => Promise<void>> = []
  afterEach(() => runCleanups(cleanups))

  it('count live posts, a number every write raises, and the latest change, through every kind of write', async () => {
    let now = new Date('2026-03-01T10:00:00.000Z')
    const opened = await kind.open(cleanups)
    if (opened.sql === undefined) throw new Error('a SQL store has a database')
    const news = new JournaledNewsRepository(opened.store, { now: () => now })
    const source = new SqlSitemapSource(opened.sql.database.db)
    const later = (minutes: number) => {
      now = new Date(now.getTime() + minutes * 60_000)
    }

    expect(await source.spans(50)).toEqual([])
    const [first, second, third] = [
      await news.create(draft('One')),
      await news.create(draft('Two')),
      await news.create(draft('Three')),
    ]
    if (first === undefined || second === undefined || third === undefined) throw new Error()
    later(1)
    await news.update(first._id, { body: 'Changed.' })
    later(1)
    await news.remove(second._id)
    const removedAt = now.toISOString()

    // An update counts twice: the post leaves its block's count and comes back.
    expect(await source.span(0, 0)).toEqual({ live: 2, changes: 7, changedAt: removedAt })
    expect(await source.spans(50)).toEqual([
      { index: 0, live: 2, changes: 7, changedAt: removedAt },
    ])
    // Newest published first; the trashed post is not there.
    expect(await source.posts(0, 1000)).toEqual([
      { id: third._id, updatedAt: third.updatedAt },
      { id: first._id, updatedAt: '2026-03-01T10:01:00.000Z' },
    ])

    later(1)
    await news.restore(second._id)
    expect(await source.span(0, 0)).toMatchObject({ live: 3, changes: 9 })
    later(1)
    await news.remove(second._id)
    // Purged from the trash: it was not listed, but the file's count still moves on.
    later(60 * 24 * 40)
    await news.purge(30)
    expect(await source.span(0, 0)).toMatchObject({ live: 2, changes: 12 })
    expect(await source.span(1, 49)).toBeUndefined()
  })

  it('counts the posts already stored when the schema is upgraded', async () => {
    const { raw, upgrade } = await databaseBefore(kind, cleanups, '0013-recent-changes')
    const at = (minute: number) => `2026-01-01T00:0${minute}:00.000Z`
    await sql`
      insert into news (id, title, body, author, created_at, updated_at, revision, deleted_at, search_seq)
      values ('AAAAAAAAAAAAAAAAAAAAAA', 't', 'b', 'a', ${at(1)}, ${at(4)}, 2, null, 1),
             ('BBBBBBBBBBBBBBBBBBBBBB', 't', 'b', 'a', ${at(2)}, ${at(2)}, 1, ${at(5)}, 2),
             ('CCCCCCCCCCCCCCCCCCCCCC', 't', 'b', 'a', ${at(3)}, ${at(3)}, 1, null, 2500)
    `.execute(raw)

    await upgrade()

    const source = new SqlSitemapSource(raw)
    expect(await source.spans(1)).toEqual([
      { index: 0, live: 1, changes: 2, changedAt: at(5) },
      { index: 2, live: 1, changes: 1, changedAt: at(3) },
    ])
    expect(await source.spans(50)).toEqual([{ index: 0, live: 2, changes: 3, changedAt: at(5) }])
  })
})

describeOnPostgres('a purge and an edit meeting on one sitemap block', (postgresUrl) => {
  const cleanups: Array<() => Promise<void>> = []
  afterEach(() => runCleanups(cleanups))

  it('deadlock on PostgreSQL, and the one that loses runs again: both land, the block counts right', async () => {
    const opened = await sqlStore(postgresSchema(postgresUrl)).open(cleanups)
    if (opened.sql === undefined) throw new Error('a SQL store has a database')
    const { db } = opened.sql.database
    const news = new JournaledNewsRepository(opened.store)
    const moderation = new SqlModerationStore(opened.sql.database)
    const [edited, purged, kept] = [
      await news.create(draft('Edited')),
      await news.create(draft('Purged')),
      await news.create(draft('Kept')),
    ]
    if (edited === undefined || purged === undefined || kept === undefined) throw new Error()
    const deadlocksBefore = await deadlocks()

    // A third transaction holds the site's version, so that the edit (which locks its post,
    // then waits for the version) and the purge (which deletes its post, locking the block,
    // then waits for the version) both stand inside their transactions; once it commits, the
    // edit takes the version and waits for the block the purge holds.
    let release = () => undefined as void
    const holder = db.transaction().execute(async (trx) => {
      await sql`select version from site_version for update`.execute(trx)
      await new Promise<void>((resolve) => {
        release = resolve
      })
    })
    await until(async () => (await heldBy(db)).size > 0)
    const both = Promise.all([
      news.update(edited._id, { body: 'Edited again.' }),
      moderation.purgePost(purged._id, new Date().toISOString()),
    ])
    await until(async () => (await heldBy(db)).size >= 3)
    release()
    await holder

    const [editedAgain, gone] = await both
    expect(editedAgain).toMatchObject({ body: 'Edited again.' })
    expect(gone).toBe(true)
    await expect(news.get(purged._id)).rejects.toMatchObject({ code: 'NotFound' })
    const source = new SqlSitemapSource(db)
    expect(await source.span(0, 0)).toMatchObject({ live: 2 })
    expect((await source.posts(0, 1000)).map((post) => post.id).sort()).toEqual(
      [edited._id, kept._id].sort(),
    )
    // The two met: PostgreSQL ended one as a deadlock, and it ran again.
    await until(async () => (await deadlocks()) > deadlocksBefore)
  })

  /** The deadlocks PostgreSQL has detected in the test database, as its statistics count them. */
  async function deadlocks(): Promise<number> {
    const admin = new Client({ connectionString: postgresUrl })
    await admin.connect()
    try {
      const { rows } = await admin.query<{ deadlocks: string }>(
        'select deadlocks from pg_stat_database where datname = current_database()',
      )
      return Number(rows[0]?.deadlocks ?? 0)
    } finally {
      await admin.end()
    }
  }
})

/**
 * The backends of this schema's pool in a transaction that holds the site's version, or that
 * waits, directly or not, for one that does.
 */
async function heldBy(db: Kysely<NewsWireSchema>): Promise<Set<number>> {
  const { rows } = await sql<{ pid: number; blockers: number[]; holds: boolean }>`
    select pid, pg_blocking_pids(pid) as blockers,
           query ilike '%site_version%for update%' and state = 'idle in transaction' as holds
    from pg_stat_activity where datname = current_database()
  `.execute(db)
  const found = new Set(rows.filter((row) => row.holds).map((row) => row.pid))
  for (let grown = true; grown;) {
    grown = false
    for (const row of rows) {
      if (!found.has(row.pid) && row.blockers.some((pid) => found.has(pid))) {
        found.add(row.pid)
        grown = true
      }
    }
  }
  return found
}

/** Waits until `done` answers true, asking every 20 ms, for 10 s at most. */
async function until(done: () => Promise<boolean>): Promise<void> {
  for (const started = Date.now(); !(await done());) {
    if (Date.now() - started > 10_000) throw new Error('gave up waiting')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
