import { sql } from 'kysely'
import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { SqlSitemapSource } from '@/adapters/sql/sitemap-blocks'
import { sqlStore } from '../../support/news-stores'
import { runCleanups, SHARED_STORE_KINDS } from '../../support/test-databases'
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
