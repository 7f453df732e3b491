import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { OperatorTools } from '@/application/operator-tools'
import { RollbackEditor } from '@/application/rollback-editor.use-case'
import { UndoChangesSince } from '@/application/undo-changes.use-case'
import { OPERATOR } from '@/domain/editor'
import { parseSearchQuery } from '@/domain/rules/search-query.rules'
import { SqlModerationStore } from '@/adapters/sql/moderation.store'
import { sqlStore, type NewsStoreKind } from '../../support/news-stores'
import { runCleanups, SHARED_STORE_KINDS } from '../../support/test-databases'

const KINDS: readonly NewsStoreKind[] = SHARED_STORE_KINDS.map(sqlStore)

const VANDAL = 'bad0bad0ba'
const ADA = 'a1a1a1a1a1'
const draft = (title: string) => ({ title, body: `${title}, the story.`, author: 'Ada' })
const valueOf = <T>(result: { ok: true; value: T } | { ok: false }): T => {
  if (!result.ok) throw new Error('expected success')
  return result.value
}

describe.each(KINDS)('moderation on $name', (kind) => {
  const cleanups: Array<() => Promise<void>> = []
  afterEach(() => runCleanups(cleanups))

  async function open(now?: () => Date) {
    const { store, sql } = await kind.open(cleanups)
    if (sql === undefined) throw new Error('a SQL store has a database')
    const news = new JournaledNewsRepository(store)
    const moderation = new SqlModerationStore(sql.database)
    return {
      store,
      news,
      moderation,
      tools: new OperatorTools(moderation, { operator: 'root', now }),
      rollback: new RollbackEditor(store, news),
      restore: new UndoChangesSince(store, news),
    }
  }

  it('rolls back one editor: edits reverted, new posts trashed, deletions undone, others left', async () => {
    const { news, rollback } = await open()
    const edited = await news.create(draft('Harbour'), { editor: ADA })
    const deleted = await news.create(draft('Market'), { editor: ADA })
    const fixedLater = await news.create(draft('School'), { editor: ADA })
    await news.update(edited._id, { title: 'Spam' }, undefined, VANDAL)
    await news.remove(deleted._id, undefined, VANDAL)
    await news.update(fixedLater._id, { title: 'Spam' }, undefined, VANDAL)
    await news.update(fixedLater._id, { title: 'School, fixed' }, undefined, ADA)
    const spam = await news.create(draft('Buy now'), { editor: VANDAL })

    const planned = valueOf(await rollback.execute({ editor: VANDAL, dryRun: true }))
    expect(await news.get(edited._id)).toMatchObject({ title: 'Spam' })
    const steps = valueOf(await rollback.execute({ editor: VANDAL }))

    expect(steps.map((step) => [step.kind, step.id])).toEqual(
      planned.map((step) => [step.kind, step.id]),
    )
    expect(steps).toHaveLength(4)
    expect(await news.get(edited._id)).toMatchObject({ title: 'Harbour' })
    expect(await news.get(deleted._id)).toMatchObject({ title: 'Market' })
    expect(await news.get(fixedLater._id)).toMatchObject({ title: 'School, fixed' })
    await expect(news.get(spam._id)).rejects.toMatchObject({ code: 'NotFound' })
    expect(steps.find((step) => step.id === fixedLater._id)).toMatchObject({
      kind: 'skipped',
      by: ADA,
    })
    const [undone] = (await news.revisions(edited._id, {})).items
    expect(undone).toMatchObject({ editor: OPERATOR, action: 'restore', restoredFrom: 1 })

    valueOf(await rollback.execute({ editor: VANDAL, force: true }))
    expect(await news.get(fixedLater._id)).toMatchObject({ title: 'School' })
  })

  it('restores a window of one editor’s changes, leaving changes after --until', async () => {
    const { news, restore } = await open()
    const post = await news.create(draft('Harbour'), { editor: ADA })
    const other = await news.create(draft('Market'), { editor: ADA })
    await new Promise((resolve) => setTimeout(resolve, 5))
    const since = new Date()
    await news.update(post._id, { title: 'Spam' }, undefined, VANDAL)
    await news.update(other._id, { title: 'Better' }, undefined, ADA)

    const dry = valueOf(await restore.execute({ since, editor: VANDAL, dryRun: true }))
    expect(dry).toEqual([{ kind: 'reverted', id: post._id, title: 'Spam', toRevision: 1 }])
    valueOf(await restore.execute({ since, editor: VANDAL }))

    expect(await news.get(post._id)).toMatchObject({ title: 'Harbour' })
    expect(await news.get(other._id)).toMatchObject({ title: 'Better' })
    const until = valueOf(await restore.execute({ since, until: since }))
    expect(until.every((step) => step.kind === 'skipped')).toBe(true)
  })

  it('keeps blocks by pseudonym and by range until they end or are lifted', async () => {
    const { tools, moderation } = await open()
    const now = new Date()
    valueOf(await tools.block({ kind: 'editor', target: VANDAL }, { reason: 'spam wave' }))
    valueOf(await tools.block({ kind: 'range', target: '203.0.113.0/24' }, { forMs: 60_000 }))
    valueOf(await tools.block({ kind: 'range', target: '2001:db8::/48' }, { forMs: -60_000 }))

    expect(await moderation.blockOn(VANDAL, '198.51.100.1', now)).toMatchObject({
      reason: 'spam wave',
      expiresAt: null,
    })
    expect(await moderation.blockOn(ADA, '203.0.113.77', now)).toMatchObject({ kind: 'range' })
    expect(await moderation.blockOn(ADA, '203.0.114.1', now)).toBeUndefined()
    // An ended block no longer holds.
    expect(await moderation.blockOn(ADA, '2001:db8::1', now)).toBeUndefined()
    expect(
      valueOf(await tools.blocks())
        .map((block) => block.target)
        .sort(),
    ).toEqual(['203.0.113.0/24', VANDAL])

    expect(valueOf(await tools.unblock(VANDAL))).toBe(1)
    expect(await moderation.blockOn(VANDAL, undefined, now)).toBeUndefined()
    expect((await tools.unblock(VANDAL)).ok).toBe(false)
  })

  it('protects and unprotects a post, and refuses an unknown one', async () => {
    const { news, tools, moderation } = await open()
    const post = await news.create(draft('Harbour'))
    valueOf(await tools.protect(post._id, 'edit war'))
    expect(await moderation.protection(post._id)).toMatchObject({ reason: 'edit war' })
    expect((await tools.protect('AAAAAAAAAAAAAAAAAAAAAA')).ok).toBe(false)
    valueOf(await tools.unprotect(post._id))
    expect(await moderation.protection(post._id)).toBeUndefined()
  })

  it('hides an old revision’s text for good, keeping its time, action and editor', async () => {
    const { news, tools } = await open()
    const post = await news.create(draft('Illegal text'), { editor: VANDAL })
    await news.update(post._id, { title: 'Harbour' }, undefined, ADA)

    expect(valueOf(await tools.redact(post._id, 2))).toBe('newest')
    expect(valueOf(await tools.redact(post._id, 9))).toBe('missing')
    expect(valueOf(await tools.redact(post._id, 1, 'court order'))).toBe('hidden')

    const [, first] = (await news.revisions(post._id, {})).items
    expect(first).toEqual({
      revision: 1,
      action: 'create',
      at: post.createdAt,
      editor: VANDAL,
      title: '',
      body: '',
      author: '',
      hidden: true,
    })
    await expect(news.restoreRevision(post._id, 1)).rejects.toMatchObject({ code: 'NotFound' })
  })

  it('purges a post with its history, from the list, search and the change log', async () => {
    const { news, tools, store } = await open()
    const post = await news.create(draft('Zanzibar spam'))
    const kept = await news.create(draft('Harbour'))
    const version = await store.version()

    valueOf(await tools.purge(post._id, 'illegal'))

    expect((await news.list({})).items.map((item) => item._id)).toEqual([kept._id])
    expect((await news.search(valueOf(parseSearchQuery('zanzibar')), {})).items).toEqual([])
    await expect(news.revisions(post._id, {})).rejects.toMatchObject({ code: 'NotFound' })
    expect(await store.version()).toBeGreaterThan(version)
    const changes = await store.changesSince(0, 100)
    expect(changes.filter((change) => change.id === post._id)).toEqual([
      expect.objectContaining({ kind: 'deleted', revision: 2 }),
    ])
    expect((await tools.purge(post._id)).ok).toBe(false)
  })

  it('records each operator action with who, what, when and why, in order within one instant', async () => {
    const instant = new Date()
    const { news, tools } = await open(() => instant)
    const post = await news.create(draft('Harbour'))
    valueOf(await tools.protect(post._id, 'edit war'))
    valueOf(await tools.block({ kind: 'editor', target: VANDAL }, { reason: 'spam' }))
    valueOf(await tools.unprotect(post._id))

    const log = valueOf(await tools.log())
    expect(
      log.map(({ operator, action, target, reason }) => [operator, action, target, reason]),
    ).toEqual([
      ['root', 'protect', post._id, 'edit war'],
      ['root', 'block', VANDAL, 'spam'],
      ['root', 'unprotect', post._id, ''],
    ])
    expect(Date.parse(log[0]?.at ?? '')).not.toBeNaN()
  })
})
