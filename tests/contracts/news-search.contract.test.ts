import { sql } from 'kysely'
import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { openDatabase } from '@/adapters/sql/database'
import { SqlNewsStore } from '@/adapters/sql/news/store'
import { encodeCursor, INVALID_CURSOR_MESSAGE } from '@/adapters/shared/keyset-cursor'
import { encodeSearchCursor } from '@/adapters/shared/search-cursor'
import { validationFailed } from '@/domain/domain-error'
import type { NewsDraft, NewsItem } from '@/domain/news-item.entity'
import type { NewsPageQuery } from '@/domain/ports/news-repository.port'
import { parseSearchQuery, type SearchQuery } from '@/domain/rules/search-query.rules'
import { databaseBefore, explainSearchTier } from '../adapters/sql/sql-test-stores'
import { memoryStore, sqlStore, type NewsStoreKind } from '../support/news-stores'
import {
  POSTGRES_SKIPPED,
  postgresSchema,
  runCleanups,
  sqliteFile,
  TEST_POSTGRES_URL,
} from '../support/test-databases'
import { clock } from './news-repository.contract'

/*
 * What search must do on every store: memory, SQLite (FTS5) and PostgreSQL (tsvector) find the
 * same posts in the same order, because they index the words the domain folded.
 */

const KINDS: readonly NewsStoreKind[] = [
  memoryStore,
  sqlStore(sqliteFile),
  ...(TEST_POSTGRES_URL === undefined ? [] : [sqlStore(postgresSchema(TEST_POSTGRES_URL))]),
]

if (TEST_POSTGRES_URL === undefined) console.warn(POSTGRES_SKIPPED)

function query(text: string): SearchQuery {
  const parsed = parseSearchQuery(text)
  if (!parsed.ok) throw new Error(`the domain refuses ${JSON.stringify(text)}`)
  return parsed.value
}

const post = (title: string, body = 'Nothing to see.', author = 'Ada'): NewsDraft => ({
  title,
  body,
  author,
})

describe.each(KINDS)('search on $name', (kind) => {
  const cleanups: Array<() => Promise<void>> = []
  afterEach(() => runCleanups(cleanups))

  async function open() {
    const opened = await kind.open(cleanups)
    // One second per change: every post is newer than the one before.
    return { ...opened, repository: new JournaledNewsRepository(opened.store, { now: clock() }) }
  }

  /** The titles a search finds, in the order it ranks them, over every page. */
  async function titlesFound(
    repository: JournaledNewsRepository,
    text: string,
    page: NewsPageQuery = {},
  ): Promise<string[]> {
    const found: NewsItem[] = []
    let cursor: string | undefined
    do {
      const result = await repository.search(query(text), { ...page, cursor })
      found.push(...result.items)
      cursor = result.next
    } while (cursor !== undefined && found.length < 1000)
    return found.map((item) => item.title)
  }

  it('finds a post by a word of its title, its body or its author, and no post without it', async () => {
    const { repository } = await open()
    await repository.create(post('Harbour reopens'))
    await repository.create(post('Market day', 'The harbour was busy.'))
    await repository.create(post('Library', 'Books.', 'Harbour Master'))
    await repository.create(post('Bridge', 'Nothing about boats.'))
    expect((await titlesFound(repository, 'harbour')).sort()).toEqual([
      'Harbour reopens',
      'Library',
      'Market day',
    ])
    expect(await titlesFound(repository, 'submarine')).toEqual([])
  })

  it('finds only the posts that hold every word, wherever each word is', async () => {
    const { repository } = await open()
    await repository.create(post('Storm over the harbour'))
    await repository.create(post('Harbour reopens', 'A storm is coming.'))
    await repository.create(post('Storm warning', 'Stay home.'))
    expect((await titlesFound(repository, 'storm harbour')).sort()).toEqual([
      'Harbour reopens',
      'Storm over the harbour',
    ])
  })

  it('matches whole words only', async () => {
    const { repository } = await open()
    await repository.create(post('Harbours of the north'))
    expect(await titlesFound(repository, 'harbour')).toEqual([])
    expect(await titlesFound(repository, 'harbours')).toEqual(['Harbours of the north'])
  })

  it.each([
    ['CAFE', 'Le café du port'],
    ['café', 'CAFE OPENS'],
    ['zurich', 'Zürich wins'],
    ['ÉTÉ', 'Un été chaud'],
    ['strasse', 'Die Straße'],
    ['ﬁnal', 'The final'],
    ['ｃａｆｅ', 'Café'],
    ['ΣΟΦΟΣ', 'σοφός'],
  ])('ignores case, accents and compatibility forms: %j finds %j', async (text, title) => {
    const { repository } = await open()
    await repository.create(post(title))
    await repository.create(post('Unrelated'))
    expect(await titlesFound(repository, text)).toEqual([title])
  })

  it('ranks posts whose title holds every word first, then some, then none; newest first within each', async () => {
    const { repository } = await open()
    await repository.create(post('Old storm over the harbour'))
    await repository.create(post('Old harbour news', 'A storm.'))
    await repository.create(post('Old weather', 'Storm at the harbour.'))
    await repository.create(post('New weather', 'The harbour saw a storm.'))
    await repository.create(post('New harbour news', 'Another storm.'))
    await repository.create(post('New storm over the harbour'))
    expect(await titlesFound(repository, 'storm harbour')).toEqual([
      'New storm over the harbour',
      'Old storm over the harbour',
      'New harbour news',
      'Old harbour news',
      'New weather',
      'Old weather',
    ])
  })

  it('ranks a title match above a body that repeats the word', async () => {
    const { repository } = await open()
    await repository.create(post('Tides', 'harbour '.repeat(60).trim()))
    await repository.create(post('Harbour', 'Short.'))
    await repository.create(post('Later tides', 'harbour '.repeat(60).trim()))
    expect(await titlesFound(repository, 'harbour')).toEqual(['Harbour', 'Later tides', 'Tides'])
  })

  it('pages through every match once, in rank order, across the tiers', async () => {
    const { repository } = await open()
    const expected: string[] = []
    for (let index = 0; index < 7; index += 1) {
      await repository.create(post(`Harbour ${index}`))
      expected.unshift(`Harbour ${index}`)
    }
    const inBody: string[] = []
    for (let index = 0; index < 6; index += 1) {
      await repository.create(post(`Note ${index}`, 'At the harbour.'))
      inBody.unshift(`Note ${index}`)
    }
    await repository.create(post('Unrelated'))
    for (const limit of [1, 2, 5, 7, 13, 100]) {
      expect(await titlesFound(repository, 'harbour', { limit })).toEqual([...expected, ...inBody])
    }
    const first = await repository.search(query('harbour'), { limit: 5 })
    expect(first.items).toHaveLength(5)
    expect(first.next).toEqual(expect.any(String))
    const all = await repository.search(query('harbour'), { limit: 13 })
    expect(all.next).toBeUndefined()
  })

  it('answers 24 posts a page by default and at most 100', async () => {
    const { repository } = await open()
    for (let index = 0; index < 101; index += 1) await repository.create(post(`Harbour ${index}`))
    expect((await repository.search(query('harbour'), {})).items).toHaveLength(24)
    expect((await repository.search(query('harbour'), { limit: 1000 })).items).toHaveLength(100)
  })

  it.each([
    ['a list cursor', encodeCursor({ at: '2026-01-01T09:30:00.123Z', id: 'abc' })],
    ['noise', 'not a cursor'],
    ['a tier that does not exist', Buffer.from('search 3 1').toString('base64url')],
    ['a number past what is safe', Buffer.from('search 1 99999999999999999').toString('base64url')],
  ])('refuses %s as the cursor with ValidationFailed', async (_name, cursor) => {
    const { repository } = await open()
    await repository.create(post('Harbour'))
    await expect(repository.search(query('harbour'), { cursor })).rejects.toEqual(
      validationFailed({ cursor: INVALID_CURSOR_MESSAGE }),
    )
  })

  it('answers an empty last page for a cursor past every match', async () => {
    const { repository } = await open()
    await repository.create(post('Harbour'))
    const cursor = encodeSearchCursor({ tier: 0, seq: 1 })
    expect(await repository.search(query('harbour'), { cursor })).toEqual({ items: [] })
  })

  it('finds an edited post by its new words at once, and no longer by its old ones', async () => {
    const { repository } = await open()
    const item = await repository.create(post('Harbour reopens', 'Boats are back.'))
    const edited = await repository.update(item._id, { title: 'Bridge reopens', body: 'Cars.' })
    expect(await repository.search(query('bridge cars'), {})).toEqual({ items: [edited] })
    expect(await titlesFound(repository, 'harbour')).toEqual([])
    expect(await titlesFound(repository, 'boats')).toEqual([])
    await repository.update(item._id, { author: 'Grace Hopper' })
    expect(await titlesFound(repository, 'hopper')).toEqual(['Bridge reopens'])
  })

  it('finds a trashed post no more, a restored post again, and a reverted post by its old words', async () => {
    const { repository } = await open()
    const item = await repository.create(post('Harbour reopens'))
    await repository.remove(item._id)
    expect(await titlesFound(repository, 'harbour')).toEqual([])
    const restored = await repository.restore(item._id)
    expect(await repository.search(query('harbour'), {})).toEqual({ items: [restored] })
    await repository.update(item._id, { title: 'Bridge reopens' })
    await repository.restoreRevision(item._id, 1)
    expect(await titlesFound(repository, 'harbour')).toEqual(['Harbour reopens'])
    expect(await titlesFound(repository, 'bridge')).toEqual([])
  })

  it('keeps a post’s place when it is edited or restored: newer posts still rank above it', async () => {
    const { repository } = await open()
    const older = await repository.create(post('Harbour one'))
    await repository.create(post('Harbour two'))
    await repository.update(older._id, { body: 'Edited later.' })
    await repository.remove(older._id)
    await repository.restore(older._id)
    expect(await titlesFound(repository, 'harbour')).toEqual(['Harbour two', 'Harbour one'])
  })

  it('forgets purged posts', async () => {
    const { repository } = await open()
    const item = await repository.create(post('Harbour'))
    await repository.remove(item._id)
    await repository.purge(0)
    await repository.create(post('Harbour again'))
    expect(await titlesFound(repository, 'harbour')).toEqual(['Harbour again'])
  })

  it('reads quotes, operators and SQL as plain words', async () => {
    const { repository } = await open()
    await repository.create(post('Rock and roll', 'Not near the end, or is it?'))
    await repository.create(post('Unrelated'))
    for (const text of ['AND', 'not', 'NEAR', 'or', '"rock" AND "roll"', 'rock*', '^rock']) {
      expect(await titlesFound(repository, text)).toEqual(['Rock and roll'])
    }
    for (const text of [
      '"unclosed',
      'NEAR(a b, 2)',
      'a OR b NOT c',
      '- ( ) * ^ : a',
      "'; drop table news; --",
      '%_\\',
      'x'.repeat(200),
      '{title}: rock',
      'title:rock',
      'rock & !roll | (x <-> y)',
    ]) {
      await expect(repository.search(query(text), {})).resolves.toEqual(expect.any(Object))
    }
    expect(await titlesFound(repository, 'Rock and roll')).toEqual(['Rock and roll'])
  })

  it('answers an empty page for a query without a word, without asking the index', async () => {
    const { repository } = await open()
    await repository.create(post('Harbour'))
    expect(await repository.search({ text: '!!!', terms: [] }, {})).toEqual({ items: [] })
  })

  it('finds the words of a long post, its longest word included', async () => {
    const { repository } = await open()
    const long = 'a'.repeat(90)
    await repository.create(post('Long', `${'lorem ipsum '.repeat(30)}${long} harbour`))
    expect(await titlesFound(repository, long)).toEqual(['Long'])
    expect(await titlesFound(repository, 'harbour lorem')).toEqual(['Long'])
  })
})

describe.each(KINDS.filter((kind) => kind.engine !== 'memory'))(
  'the search index of $name',
  (kind) => {
    const cleanups: Array<() => Promise<void>> = []
    afterEach(() => runCleanups(cleanups))

    it('indexes the posts a database already held when it upgrades, newest first, trashed ones left out', async () => {
      const { raw, url } = await databaseBefore(kind, cleanups, '0005-site-version')
      const rows = [
        ['old-1', 'Harbour one', '2025-01-01T00:00:00.000Z', null],
        ['old-3', 'Harbour three', '2025-01-03T00:00:00.000Z', null],
        ['old-2', 'Café two', '2025-01-02T00:00:00.000Z', null],
        ['old-4', 'Harbour trashed', '2025-01-04T00:00:00.000Z', '2025-01-05T00:00:00.000Z'],
      ] as const
      for (const [id, title, at, deletedAt] of rows) {
        await sql`insert into news (id, title, body, author, created_at, updated_at, revision, deleted_at)
                values (${id}, ${title}, 'Body of the harbour', 'Ada', ${at}, ${at}, 1, ${deletedAt})`.execute(
          raw,
        )
      }
      const database = await openDatabase(url)
      cleanups.push(() => database.close())
      const repository = new JournaledNewsRepository(new SqlNewsStore(database))
      const titles = async (text: string) =>
        (await repository.search(query(text), {})).items.map((item) => item.title)
      expect(await titles('harbour')).toEqual(['Harbour three', 'Harbour one', 'Café two'])
      expect(await titles('CAFE')).toEqual(['Café two'])
      // The trashed post was indexed or left out as the store keeps it: a restore finds it.
      await repository.restore('old-4')
      expect(await titles('trashed')).toEqual(['Harbour trashed'])
      // A post made after the upgrade is published after every post there was.
      await repository.create(post('Harbour new', 'Body', 'Ada'))
      expect((await titles('harbour'))[0]).toBe('Harbour new')
    })

    it('indexes every post again when search learns to fold more letters', async () => {
      const { raw, url } = await databaseBefore(kind, cleanups, '0008-event-stream-leases')
      const engine = kind.engine === 'postgres' ? 'postgres' : 'sqlite'
      await sql`insert into news (id, title, body, author, created_at, updated_at, revision, search_seq)
              values ('bridge', 'Øresund bridge', 'Body', 'Ada', ${'2025-01-01T00:00:00.000Z'},
                      ${'2025-01-01T00:00:00.000Z'}, 1, 1)`.execute(raw)
      // The words as the fold before this release kept them: ø stayed ø.
      if (engine === 'postgres') {
        await sql`update news set search_vector = array_to_tsvector(array['øresund', 'bridge', 'body', 'ada']),
                  title_vector = array_to_tsvector(array['øresund', 'bridge'])`.execute(raw)
      } else {
        await sql`insert into news_search (rowid, title, rest) values (1, 'øresund bridge', 'ada body')`.execute(
          raw,
        )
      }
      const database = await openDatabase(url)
      cleanups.push(() => database.close())
      const repository = new JournaledNewsRepository(new SqlNewsStore(database))
      const found = await repository.search(query('oresund'), {})
      expect(found.items.map((item) => item.title)).toEqual(['Øresund bridge'])
    })

    it('indexes a post an older release wrote during a rolling upgrade at its next write', async () => {
      const { store, sql: opened } = await kind.open(cleanups)
      if (opened === undefined) throw new Error('no database')
      const repository = new JournaledNewsRepository(store)
      // Only the columns the release before search knew.
      await sql`insert into news (id, title, body, author, created_at, updated_at, revision, deleted_at)
              values ('older', 'Harbour news', 'Body', 'Ada', ${'2025-01-01T00:00:00.000Z'},
                      ${'2025-01-01T00:00:00.000Z'}, 1, null)`.execute(opened.database.db)
      await repository.create(post('Harbour today'))
      expect((await repository.search(query('harbour'), {})).items.map((i) => i.title)).toEqual([
        'Harbour today',
      ])
      await repository.update('older', { body: 'Edited by a current server.' })
      const found = (await repository.search(query('harbour'), {})).items.map((i) => i.title)
      expect(found.sort()).toEqual(['Harbour news', 'Harbour today'])
    })

    it.skipIf(kind.engine !== 'sqlite')(
      'reads each tier from the full-text index backwards, with no sort, whatever the query',
      async () => {
        const { sql: opened } = await kind.open(cleanups)
        if (opened === undefined) throw new Error('no database')
        for (const [tier, before] of [
          [2, undefined],
          [1, 10],
          [0, 10],
        ] as const) {
          const plan = await explainSearchTier(opened.database, ['storm', 'harbour'], tier, before)
          expect(plan).toMatch(/SCAN news_search VIRTUAL TABLE INDEX/)
          expect(plan).toMatch(/SEARCH news USING INDEX news_search_seq_idx \(search_seq=\?\)/)
          expect(plan).not.toMatch(/TEMP B-TREE/)
        }
      },
    )
  },
)
