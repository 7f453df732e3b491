import { sql } from 'kysely'
import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { OPERATOR, UNKNOWN_EDITOR } from '@/domain/editor'
import { memoryStore, sqlStore, type NewsStoreKind } from '../../support/news-stores'
import { runCleanups, SHARED_STORE_KINDS } from '../../support/test-databases'
import { databaseBefore } from './sql-test-stores'

const KINDS: readonly NewsStoreKind[] = [memoryStore, ...SHARED_STORE_KINDS.map(sqlStore)]

const ADA = 'a1a1a1a1a1'
const BOB = 'b2b2b2b2b2'
const draft = { title: 'Harbour', body: 'The harbour opens.', author: 'Ada' }

describe.each(KINDS)('the editor of each revision, on $name', (kind) => {
  const cleanups: Array<() => Promise<void>> = []
  afterEach(() => runCleanups(cleanups))

  it('records who made each change, and `unknown` for a change that names no one', async () => {
    const { store } = await kind.open(cleanups)
    const news = new JournaledNewsRepository(store)

    const post = await news.create(draft, { editor: ADA })
    await news.update(post._id, { title: 'Harbour shut' }, undefined, BOB)
    await news.remove(post._id, undefined, ADA)
    await news.restore(post._id, OPERATOR)
    await news.restoreRevision(post._id, 1, BOB)
    await news.update(post._id, { body: 'No one said.' })

    const { items } = await news.revisions(post._id, {})
    expect(items.map(({ revision, action, editor }) => [revision, action, editor])).toEqual([
      [6, 'edit', UNKNOWN_EDITOR],
      [5, 'restore', BOB],
      [4, 'restore', OPERATOR],
      [3, 'delete', ADA],
      [2, 'edit', BOB],
      [1, 'create', ADA],
    ])
  })
})

describe.each(KINDS.filter((kind) => kind.engine !== 'memory'))(
  'upgrading $name to attributed revisions',
  (kind) => {
    const cleanups: Array<() => Promise<void>> = []
    afterEach(() => runCleanups(cleanups))

    it('names the editor of revisions made before the upgrade `unknown`', async () => {
      const { raw, upgrade } = await databaseBefore(kind, cleanups, '0010-site-secrets')
      await sql`
        insert into news_revision (news_id, revision, title, body, author, action, at)
        values ('AAAAAAAAAAAAAAAAAAAAAA', 1, 't', 'b', 'a', 'create', '2026-01-01T00:00:00.000Z')
      `.execute(raw)

      await upgrade()

      const rows = await raw.selectFrom('news_revision').select('editor').execute()
      expect(rows).toEqual([{ editor: UNKNOWN_EDITOR }])
    })
  },
)
