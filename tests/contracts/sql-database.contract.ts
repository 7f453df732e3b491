import { sql, type Kysely } from 'kysely'
import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { openDatabase, sqlDatabase, type SqlDatabase } from '@/adapters/sql/database'
import { parseDatabaseUrl } from '@/application/database-target'
import { addDemoPostsIfEmpty } from '@/adapters/sql/demo-posts'
import {
  NEWS_LIST_INDEX,
  NEWS_REVISION_AT_INDEX,
  NEWS_TRASH_INDEX,
} from '@/adapters/sql/migrations/index-names'
import type { NewsWireSchema } from '@/adapters/sql/newswire.schema'
import { SqlNewsStore, type SqlNewsStoreOptions } from '@/adapters/sql/news/store'
import { notFound, unavailable } from '@/domain/domain-error'
import type { NewsDraft } from '@/domain/news-item.entity'
import { MAX_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import { checkFields } from '@/domain/rules/field-rule'
import { NEWS_RULES } from '@/domain/rules/news-item.rules'
import { clock, START } from './news-repository.contract'
import {
  explainChangedSince,
  explainNewsPage,
  explainRevisionPage,
  explainTrashPage,
  databaseBefore,
  rawDatabase,
} from '../adapters/sql/sql-test-stores'
import type { NewsStoreKind } from '../support/news-stores'
import { runCleanups } from '../support/test-databases'

const draft: NewsDraft = { title: 'Harbour reopens', body: 'Boats are back.', author: 'Ada' }

/** What only the SQL engines must do: indexes, migrations, and failing safely. */
export function sqlDatabaseContract(kind: NewsStoreKind): void {
  const cleanups: Array<() => Promise<void>> = []
  afterEach(() => runCleanups(cleanups))

  async function open(options: SqlNewsStoreOptions = {}, now?: () => Date) {
    const { store, sql: opened } = await kind.open(cleanups, options)
    if (opened === undefined) throw new Error(`${kind.name} is not a SQL store`)
    const repository = new JournaledNewsRepository(store, { now })
    return { store, repository, database: opened.database, url: opened.url }
  }

  describe('indexes', () => {
    function expectIndexRange(database: SqlDatabase, plan: string, index: string) {
      expect(plan).toContain(index)
      if (database.engine === 'sqlite') {
        expect(plan).not.toMatch(/TEMP B-TREE/)
      } else {
        expect(plan).toMatch(/Index (Only )?Scan/)
        expect(plan).not.toMatch(/Sort|Seq Scan/)
      }
    }

    it.each([
      ['live posts', 'list', explainNewsPage, NEWS_LIST_INDEX, 3, 10_000],
      ['the trash', 'trash', explainTrashPage, NEWS_TRASH_INDEX, 2, 20_000],
    ] as const)(
      'reads each page of %s through the partial %s index, without sorting',
      async (_, _index, explain, index, trashEvery, cursorMs) => {
        const { database, repository } = await open({}, clock())
        for (let n = 0; n < 30; n += 1) {
          const item = await repository.create({ ...draft, title: `Post ${n}` })
          if (n % trashEvery === 0) await repository.remove(item._id)
        }
        const first = await explain(database)
        const after = await explain(database, {
          at: new Date(START + cursorMs).toISOString(),
          id: 'M',
        })
        for (const plan of [first, after]) expectIndexRange(database, plan, index)
        // The cursor is a range condition on the index, not a filter over every row.
        expect(after).toMatch(database.engine === 'sqlite' ? /SEARCH news/ : /Index Cond/)
      },
    )

    it('reads each page of a post’s history through the primary key, without sorting', async () => {
      const { database, repository } = await open({}, clock())
      const item = await repository.create(draft)
      for (let index = 0; index < 30; index += 1) {
        await repository.update(item._id, { title: `Title ${index}` })
        await repository.create({ ...draft, title: `Other ${index}` })
      }
      const first = await explainRevisionPage(database, item._id)
      const after = await explainRevisionPage(database, item._id, 12)
      for (const plan of [first, after]) {
        if (database.engine === 'sqlite') {
          // SQLite names a table's composite primary key after the table.
          expect(plan).toMatch(
            /SEARCH news_revision USING (INDEX sqlite_autoindex_news_revision_1|PRIMARY KEY)/,
          )
          expect(plan).not.toMatch(/TEMP B-TREE/)
        } else {
          expectIndexRange(database, plan, 'news_revision_pkey')
        }
      }
      // The cursor is a range condition on the key, not a filter over the post's every version.
      expect(after).toMatch(
        database.engine === 'sqlite' ? /revision<\?/ : /Index Cond: .*revision < /,
      )
    })

    it('finds the revisions made since an instant through their index', async () => {
      const { database, repository } = await open({}, clock())
      for (let index = 0; index < 20; index += 1) await repository.create(draft)
      const plan = await explainChangedSince(database, new Date(START + 15_000).toISOString())
      expect(plan).toContain(NEWS_REVISION_AT_INDEX)
      expect(plan).toMatch(database.engine === 'sqlite' ? /SEARCH news_revision/ : /Index Cond/)
    })
  })

  describe('the database', () => {
    it.skipIf(!kind.persistent)(
      'runs its migrations once: opening the same database again keeps posts and histories',
      async () => {
        const { url, repository } = await open({}, clock())
        const item = await repository.create(draft)
        const edited = await repository.update(item._id, { title: 'Edited' })
        const again = await openDatabase(url)
        cleanups.push(() => again.close())
        const reopened = new JournaledNewsRepository(new SqlNewsStore(again))
        expect(await reopened.get(item._id)).toEqual(edited)
        expect(
          (await reopened.revisions(item._id, {})).items.map((revision) => revision.action),
        ).toEqual(['edit', 'create'])
        const third = await openDatabase(url)
        await third.close()
      },
    )

    it.skipIf(!kind.persistent)(
      'opens a current database without waiting for the migration lock another process holds',
      async () => {
        const { url } = await open()
        const db = rawDatabase(url)
        cleanups.push(() => db.destroy())
        // The lock an upgrading server holds: Kysely's advisory lock on PostgreSQL, the write lock
        // on SQLite. A PgBouncer that split a lock from its release leaves PostgreSQL's held too.
        if (kind.engine === 'postgres') {
          await sql`select pg_advisory_lock(${sql.lit(KYSELY_MIGRATION_LOCK_ID)})`.execute(db)
        } else {
          await sql`begin immediate`.execute(db)
        }

        const started = Date.now()
        const again = await openDatabase(url)
        await again.close()
        expect(Date.now() - started).toBeLessThan(2_000)
      },
    )

    it('gives the posts of a database made before histories a first revision when it upgrades', async () => {
      // A database as the previous release left it: no history columns or tables yet.
      const { raw: db, url, upgrade } = await databaseBefore(kind, cleanups, '0002-outbox')
      await sql`insert into news (id, title, body, author, created_at)
                values ('old-post', 'Old title', 'Old body', 'Old author', ${'2025-05-05T05:05:05.555Z'})`.execute(
        db,
      )
      await upgrade()

      const store = new SqlNewsStore(asDatabase(db, kind, url))
      const repository = new JournaledNewsRepository(store)
      expect(await repository.get('old-post')).toEqual({
        _id: 'old-post',
        title: 'Old title',
        body: 'Old body',
        author: 'Old author',
        createdAt: '2025-05-05T05:05:05.555Z',
        updatedAt: '2025-05-05T05:05:05.555Z',
        revision: 1,
      })
      expect((await repository.revisions('old-post', {})).items).toEqual([
        {
          revision: 1,
          title: 'Old title',
          body: 'Old body',
          author: 'Old author',
          action: 'create',
          at: '2025-05-05T05:05:05.555Z',
          editor: 'unknown',
        },
      ])
      const edited = await repository.update('old-post', { title: 'New title' })
      expect(edited.revision).toBe(2)
    })

    it('begins the change log of an upgraded database at its version, so an older position cannot be replayed', async () => {
      const { raw: db, url, upgrade } = await databaseBefore(kind, cleanups, '0006-search')
      await sql`update site_version set version = 41`.execute(db)
      await upgrade()

      const store = new SqlNewsStore(asDatabase(db, kind, url))
      expect(await store.changeLogBounds()).toEqual({ version: 41, purgedThrough: 41 })
      expect(await store.changesSince(0, 10)).toEqual([])
      const item = await new JournaledNewsRepository(store).create(draft)
      expect(await store.changesSince(41, 10)).toEqual([
        expect.objectContaining({ seq: 42, id: item._id, kind: 'created', revision: 1 }),
      ])
    })

    it('answers ping while open, and not once closed', async () => {
      const { database } = await open()
      expect(await database.ping()).toBe(true)
      await database.close()
      await database.close()
      expect(await database.ping()).toBe(false)
    })

    it('reports Unavailable, with no SQL detail, when the database fails', async () => {
      const failures: unknown[] = []
      const { database, store, repository } = await open({
        onError: (error) => failures.push(error),
      })
      const item = await repository.create(draft)
      await database.close()
      const unavailableError = unavailable()
      const calls = [
        () => repository.get(item._id),
        () => repository.list({}),
        () => repository.trash({}),
        () => repository.create(draft),
        () => repository.create(draft, { idempotencyKey: 'k' }),
        () => repository.update(item._id, { title: 'x' }),
        () => repository.remove(item._id),
        () => repository.restore(item._id),
        () => repository.revisions(item._id, {}),
        () => repository.restoreRevision(item._id, 1),
        () => repository.purge(30),
        () => store.changedSince(new Date(START).toISOString()),
        () => store.changesSince(0, 10),
        () => store.changeLogBounds(),
      ]
      for (const call of calls) await expect(call()).rejects.toEqual(unavailableError)
      expect(failures).toHaveLength(calls.length)
    })

    it('passes a domain error out of a transaction unchanged, after rolling it back', async () => {
      const failures: unknown[] = []
      const { store, repository } = await open({ onError: (error) => failures.push(error) })
      const refusal = notFound()
      await expect(
        store.transaction(async (tx) => {
          await tx.saveKey({
            key: 'kept?',
            fingerprint: 'f',
            newsId: 'x',
            createdAt: new Date(START).toISOString(),
          })
          throw refusal
        }),
      ).rejects.toBe(refusal)
      expect(failures).toEqual([])
      // The connection is usable afterwards, and nothing was kept.
      expect(await store.transaction((tx) => tx.findKey('kept?'))).toBeUndefined()
      expect((await repository.create(draft)).revision).toBe(1)
    })

    it('refuses an id the domain could never issue without asking the database', async () => {
      const { database, repository } = await open()
      await database.close()
      await expect(repository.get('../../etc')).rejects.toEqual(notFound())
    })
  })

  describe('demo posts', () => {
    it('adds the demo posts to an empty database, each within the domain rules and with a history', async () => {
      const { repository } = await open()
      const added = await addDemoPostsIfEmpty(repository, true)
      const { items } = await repository.list({ limit: MAX_PAGE_SIZE })
      expect(added).toBeGreaterThanOrEqual(6)
      expect(items).toHaveLength(added)
      for (const item of items) {
        expect(checkFields(NEWS_RULES, item)).toEqual({})
        expect(item.title).toBe(item.title.trim())
        expect(item.body).toBe(item.body.trim())
        expect(item.author).toBe(item.author.trim())
        expect(item.revision).toBe(1)
        expect((await repository.revisions(item._id, {})).items).toHaveLength(1)
      }
      expect(items.some((item) => item.body.includes('\n'))).toBe(true)
      expect(new Set(items.map((item) => item.author)).size).toBe(items.length)
    })

    it('adds nothing when demo posts are turned off', async () => {
      const { repository } = await open()
      expect(await addDemoPostsIfEmpty(repository, false)).toBe(0)
      expect((await repository.list({})).items).toEqual([])
    })

    it('adds nothing to a database that already has posts, so a restart adds none', async () => {
      const { repository } = await open()
      const item = await repository.create(draft)
      expect(await addDemoPostsIfEmpty(repository, true)).toBe(0)
      expect((await repository.list({})).items).toEqual([item])
    })
  })
}

/** The key of the session advisory lock Kysely's migrator takes on PostgreSQL. */
const KYSELY_MIGRATION_LOCK_ID = 3853314791062309107n

/** A connection to the test's database that runs no migration by itself. */
function asDatabase(db: Kysely<NewsWireSchema>, kind: NewsStoreKind, url: string): SqlDatabase {
  // No log to flush: its writes commit under synchronous FULL, on the disk already.
  return sqlDatabase(db, parseDatabaseUrl(url), { description: kind.name })
}
