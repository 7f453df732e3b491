import { sql as sqlText } from 'kysely'
import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { ListChanges } from '@/application/list-changes.use-case'
import { INVALID_CURSOR_MESSAGE } from '@/adapters/shared/keyset-cursor'
import { SqlModerationStore } from '@/adapters/sql/moderation.store'
import {
  NEWS_CHANGE_REVISION_INDEX,
  NEWS_REVISION_EDITOR_INDEX,
} from '@/adapters/sql/migrations/index-names'
import { validationFailed } from '@/domain/domain-error'
import { INVALID_EDITOR_MESSAGE, OPERATOR } from '@/domain/editor'
import type { RecentChange } from '@/domain/news-change.entity'
import type { NewsDraft } from '@/domain/news-item.entity'
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import { explainChangePage } from '../adapters/sql/sql-test-stores'
import type { NewsStoreKind } from '../support/news-stores'
import { runCleanups } from '../support/test-databases'
import { clock } from './news-repository.contract'

const draft: NewsDraft = { title: 'Harbour reopens', body: 'Boats are back.', author: 'Ada' }
const ALICE = 'a1a1a1a1a1'
const BOB = 'b2b2b2b2b2'

/**
 * The recent changes (GET /api/changes, the /changes page) on every store: the change log,
 * newest first, each change with its editor and the title its revision had.
 */
export function recentChangesContract(kind: NewsStoreKind): void {
  const cleanups: Array<() => Promise<void>> = []
  afterEach(() => runCleanups(cleanups))

  async function open() {
    const opened = await kind.open(cleanups)
    const repository = new JournaledNewsRepository(opened.store, { now: clock() })
    return { ...opened, repository, listChanges: new ListChanges(repository) }
  }

  const summary = (change: RecentChange) => [change.kind, change.revision, change.title]

  async function readAll(repository: JournaledNewsRepository, limit: number, editor?: string) {
    const seen: RecentChange[] = []
    let cursor: string | undefined
    do {
      const page = await repository.changes({ limit, cursor, editor })
      seen.push(...page.items)
      cursor = page.next
    } while (cursor !== undefined && seen.length < 1000)
    return seen
  }

  describe('recent changes', () => {
    it('lists every change across the site newest first, with its editor and the title of its revision', async () => {
      const { repository } = await open()
      const first = await repository.create(draft, { editor: ALICE })
      const second = await repository.create({ ...draft, title: 'Tram line' }, { editor: BOB })
      await repository.update(first._id, { title: 'Harbour closes' }, undefined, BOB)
      await repository.remove(second._id, undefined, ALICE)
      await repository.restore(second._id, OPERATOR)
      await repository.restoreRevision(first._id, 1, ALICE)

      const { items, next } = await repository.changes({})
      expect(next).toBeUndefined()
      expect(items.map((change) => [change.id, ...summary(change), change.editor])).toEqual([
        [first._id, 'edited', 3, 'Harbour reopens', ALICE],
        [second._id, 'restored', 3, 'Tram line', OPERATOR],
        [second._id, 'deleted', 2, 'Tram line', ALICE],
        [first._id, 'edited', 2, 'Harbour closes', BOB],
        [second._id, 'created', 1, 'Tram line', BOB],
        [first._id, 'created', 1, 'Harbour reopens', ALICE],
      ])
      const seqs = items.map((change) => change.seq)
      expect(seqs).toEqual([...seqs].sort((a, b) => b - a))
      expect(items[0]).toEqual({
        seq: seqs[0],
        id: first._id,
        kind: 'edited',
        revision: 3,
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        editor: ALICE,
        title: 'Harbour reopens',
      })
    })

    it('lists only the named editor’s changes, paged, each once', async () => {
      const { repository } = await open()
      for (let index = 0; index < 7; index += 1) {
        const editor = index % 2 === 0 ? ALICE : BOB
        await repository.create({ ...draft, title: `Post ${index}` }, { editor })
      }
      const alice = await readAll(repository, 2, ALICE)
      expect(alice.map((change) => change.title)).toEqual(['Post 6', 'Post 4', 'Post 2', 'Post 0'])
      expect((await readAll(repository, 3, BOB)).map((change) => change.title)).toEqual([
        'Post 5',
        'Post 3',
        'Post 1',
      ])
      expect((await repository.changes({ editor: 'c3c3c3c3c3' })).items).toEqual([])
    })

    it('pages by cursor, each change once, and later pages hold steady while changes are made', async () => {
      const { repository } = await open()
      for (let index = 0; index < 5; index += 1) {
        await repository.create({ ...draft, title: `Post ${index}` })
      }
      const first = await repository.changes({ limit: 2 })
      await repository.create({ ...draft, title: 'Newer' })
      const rest = await readAll(repository, 2)
      expect(rest.map((change) => change.title)).toEqual([
        'Newer',
        'Post 4',
        'Post 3',
        'Post 2',
        'Post 1',
        'Post 0',
      ])
      const second = await repository.changes({ limit: 2, cursor: first.next })
      expect(second.items.map((change) => change.title)).toEqual(['Post 2', 'Post 1'])
    })

    it(`returns ${DEFAULT_PAGE_SIZE} by default and at most ${MAX_PAGE_SIZE}`, async () => {
      const { listChanges, repository } = await open()
      const post = await repository.create(draft)
      for (let index = 0; index < MAX_PAGE_SIZE + 1; index += 1) {
        await repository.update(post._id, { title: `Title ${index}` })
      }
      const byDefault = await listChanges.execute()
      expect(byDefault.ok && byDefault.value.items).toHaveLength(DEFAULT_PAGE_SIZE)
      const most = await listChanges.execute({ limit: 10_000 })
      expect(most.ok && most.value.items).toHaveLength(MAX_PAGE_SIZE)
    })

    it('refuses a cursor it did not make, and a name no editor can have, as ValidationFailed', async () => {
      const { listChanges, repository } = await open()
      await repository.create(draft)
      for (const cursor of ['', 'nope', 'c2VxIDA', 'cmV2IDI']) {
        await expect(repository.changes({ cursor })).rejects.toEqual(
          validationFailed({ cursor: INVALID_CURSOR_MESSAGE }),
        )
      }
      for (const editor of ['Visitor a1a1a1a1a1', 'A1A1A1A1A1', 'a1a1', '']) {
        expect(await listChanges.execute({ editor })).toEqual({
          ok: false,
          error: validationFailed({ editor: INVALID_EDITOR_MESSAGE }),
        })
      }
    })

    it('drops the changes of a post purged from the trash', async () => {
      const { repository } = await open()
      const gone = await repository.create({ ...draft, title: 'Spam' })
      await repository.remove(gone._id)
      await repository.create({ ...draft, title: 'Kept' })
      await repository.purge(0)
      expect((await repository.changes({})).items.map((change) => change.title)).toEqual(['Kept'])
    })
  })

  describe.skipIf(kind.engine === 'memory')('recent changes in SQL', () => {
    it('lists a revision the operator hid as hidden, its title empty, its editor kept', async () => {
      const { repository, sql } = await open()
      if (sql === undefined) throw new Error('not a SQL store')
      const post = await repository.create(draft, { editor: ALICE })
      await repository.update(post._id, { title: 'Illegal words' }, undefined, BOB)
      // The newest version cannot be hidden: it is first replaced.
      await repository.update(post._id, { title: 'Harbour news' }, undefined, ALICE)
      const moderation = new SqlModerationStore(sql.database)
      expect(await moderation.hideRevision(post._id, 2, new Date().toISOString())).toBe('hidden')
      const [, hidden, created] = (await repository.changes({})).items
      expect(hidden).toMatchObject({ kind: 'edited', revision: 2, editor: BOB, title: '' })
      expect(hidden?.hidden).toBe(true)
      expect(created?.hidden).toBeUndefined()
    })

    it('reads a page newest first without sorting the log, and one editor’s from their revisions', async () => {
      const { repository, sql } = await open()
      if (sql === undefined) throw new Error('not a SQL store')
      const post = await repository.create(draft, { editor: ALICE })
      for (let index = 0; index < 100; index += 1) {
        await repository.update(post._id, { title: `Title ${index}` }, undefined, BOB)
      }
      const { database } = sql
      // PostgreSQL plans by the table's statistics, as a live site's are kept.
      if (database.engine === 'postgres') await sqlText`analyze`.execute(database.db)
      const all = await explainChangePage(database)
      const after = await explainChangePage(database, 90)
      const editor = await explainChangePage(database, 90, ALICE)
      if (database.engine === 'sqlite') {
        for (const plan of [all, after]) {
          expect(plan).toMatch(/SCAN c|SEARCH c USING INTEGER PRIMARY KEY/)
          expect(plan).not.toMatch(/TEMP B-TREE/)
        }
        expect(editor).toMatch(
          new RegExp(`${NEWS_REVISION_EDITOR_INDEX}|${NEWS_CHANGE_REVISION_INDEX}|PRIMARY KEY`),
        )
        expect(editor).not.toMatch(/SCAN r\b/)
      } else {
        for (const plan of [all, after]) {
          expect(plan).toMatch(/Index Scan Backward using news_change_pkey/)
          expect(plan).not.toMatch(/Sort|Seq Scan/)
        }
        expect(editor).not.toMatch(/Seq Scan/)
      }
    })
  })
}
