import { createActor, fromPromise, waitFor } from 'xstate'
import { stale, type DomainError } from '@/domain/domain-error'
import type { NewsItem } from '@/domain/news-item.entity'
import { NOTICES, TOAST_ACTIONS } from '@/ui/shared/notices'
import type { EditRequest, NewsStoreContext } from '@/ui/store/news-store.types'
import { newsStoreMachine } from '@/ui/store/news-store.machine'
import { overlay } from '@/ui/store/news-store.logic'
import { newsStoreLiveModel } from './live-models'
import { pendingArgs, runPath, type Rig, type StepContext } from './machine-rig'
import {
  CoverageRecorder,
  payload,
  transitionPaths,
  itTakesEachPath,
  expectCoverage,
} from './model-harness'
import { failureToast, HARBOUR, HARBOUR_CHANGED, newsStoreModel } from './models'

const coverage = new CoverageRecorder(newsStoreMachine)
const paths = transitionPaths(newsStoreModel)
const livePaths = transitionPaths(newsStoreLiveModel)

function shown(context: NewsStoreContext): NewsItem[] {
  return [...context.news, ...(context.newsItem === null ? [] : [context.newsItem])]
}

const storeOf = (step: StepContext) => step.snapshot.context as NewsStoreContext
const outcome = (step: StepContext, id: 'editNews' | 'restoreNews') =>
  step.event.type.startsWith(`xstate.`) && step.event.type.endsWith(id)

/** Whatever the store shows is the server's values with the waiting edits laid over. */
function showsPendingEdits(context: NewsStoreContext) {
  for (const item of shown(context)) {
    const edits = context.pending.filter((edit) => edit.id === item._id)
    if (edits.length > 0) expect(item).toEqual(overlay(edits[0]?.stored ?? item, edits))
  }
}

/** The edits region: one save at a time, and what each answer shows and says. */
function checkEdits(step: StepContext) {
  const { snapshot, previous, rig, effects, event } = step
  const context = storeOf(step)
  if (snapshot.matches({ edits: 'saving' })) {
    // One edit at a time goes to the server: the oldest waiting one, with its condition.
    const [first] = context.pending
    expect(pendingArgs(rig.news, 'update')).toEqual([
      [first?.id, first?.changes, ...(first?.condition ? [first.condition] : [])],
    ])
    showsPendingEdits(context)
    return
  }
  expect(context.pending).toEqual([])
  expect(rig.news.pending('update')).toEqual([])
  if (!outcome(step, 'editNews')) return
  if (event.type.startsWith('xstate.done.')) {
    expect(effects.toasts).toEqual([{ kind: 'success', message: NOTICES.edited }])
    // Saved: no text of that post waits any more.
    expect(context.unsaved[payload<NewsItem>(event, 'output')._id]).toBeUndefined()
    return
  }
  const error = payload<DomainError>(event, 'error')
  const [failed] = (previous.context as NewsStoreContext).pending
  if (error.code === 'Forbidden') {
    // Refused by the operator: the stored values show again, the text waits for the form, and
    // the toast says why, with Review.
    for (const item of shown(context).filter((each) => each._id === failed?.id)) {
      expect(item).toEqual(failed?.stored)
    }
    expect(context.unsaved[HARBOUR._id]?.reason).toBe('refused')
    expect(context.unsaved[HARBOUR._id]?.values).toMatchObject(failed?.changes ?? {})
    expect(effects.toasts).toEqual([
      {
        kind: 'error',
        message: NOTICES.blocked(null, 'spam wave'),
        action: {
          label: TOAST_ACTIONS.review,
          intent: { type: 'navigate', to: `/news/${HARBOUR._id}/edit` },
        },
      },
    ])
    return
  }
  if (error.code === 'Stale' || error.code === 'NotFound') {
    // The visitor's text waits in memory for the edit form, against the version it started from.
    const stored = failed?.stored ?? HARBOUR
    const base = { title: stored.title, author: stored.author, body: stored.body }
    expect(context.unsaved[HARBOUR._id]).toEqual({
      values: { ...base, ...failed?.changes },
      base,
      revision: failed?.condition?.ifRevision[0],
      reason: error.code === 'Stale' ? 'stale' : 'deleted',
    })
  }
  if (error.code === 'Stale' || error.code === 'NotFound') {
    if (error.code === 'NotFound') {
      // Deleted meanwhile: the post shows as deleted.
      expect(context.latest[HARBOUR._id]?.deleted).toBe(true)
    } else {
      // Nothing was overwritten: the store shows the stored post everywhere.
      for (const item of shown(context).filter((each) => each._id === failed?.id)) {
        expect(item).toEqual(HARBOUR_CHANGED)
      }
    }
    // Either way the toast says why, and its Review reopens the form with the text.
    expect(effects.toasts).toEqual([
      {
        kind: 'error',
        message: error.code === 'Stale' ? NOTICES.editConflict : NOTICES.editOfDeleted,
        action: {
          label: TOAST_ACTIONS.review,
          intent: { type: 'navigate', to: `/news/${HARBOUR._id}/edit` },
        },
      },
    ])
    return
  }
  // A failed edit shows the values the server kept again.
  for (const item of shown(context).filter((each) => each._id === failed?.id)) {
    expect(item).toEqual(failed?.stored)
  }
  expect(effects.toasts).toEqual([failureToast(error, NOTICES.tryAgainLater)])
}

/** The restores region: the delete toast's Undo. */
function checkRestores(step: StepContext) {
  const { snapshot, rig, effects, event } = step
  const context = storeOf(step)
  if (snapshot.matches({ restores: 'restoring' })) {
    expect(context.restoring).toBe(HARBOUR._id)
    expect(pendingArgs(rig.news, 'restore')).toEqual([[HARBOUR._id]])
    return
  }
  expect(context.restoring).toBeNull()
  if (!outcome(step, 'restoreNews')) return
  if (event.type.startsWith('xstate.done.')) {
    // The post is back in its place in the list, newest first, and the visitor is told.
    expect(context.news.filter((item) => item._id === HARBOUR._id)).toHaveLength(1)
    const created = context.news.map((item) => item.createdAt)
    expect(created).toEqual([...created].sort().reverse())
    expect(effects.toasts).toEqual([{ kind: 'success', message: NOTICES.restored }])
  } else {
    const error = payload<DomainError>(event, 'error')
    expect(effects.toasts).toEqual([failureToast(error, NOTICES.restoreFailed)])
  }
}

const checkStore = (step: StepContext) => {
  checkEdits(step)
  checkRestores(step)
  if (step.event.type === 'news.unsavedTaken') {
    expect(storeOf(step).unsaved).toEqual({})
  }
  if (step.event.type === 'news.removed') {
    // A deleted post shows nowhere.
    expect(shown(storeOf(step)).map((item) => item._id)).not.toContain(HARBOUR._id)
  }
  if (step.event.type === 'xstate.init' || step.event.type.startsWith('get_news')) {
    expect(step.effects.toasts).toEqual([])
  }
}

/** The names of every combination of the three regions' states. */
const everyState = (): string[] =>
  ['idle', 'saving'].flatMap((edits) =>
    ['idle', 'restoring'].flatMap((restores) =>
      ['idle', 'loading'].map(
        (refreshes) => `edits.${edits}, restores.${restores}, refreshes.${refreshes}`,
      ),
    ),
  )

/** Every combination of the regions gets the same checks. */
const checks = Object.fromEntries(everyState().map((name) => [name, checkStore]))

/** How often the store asked the screens to load again, for each rig. */
const reloads = new WeakMap<Rig, number>()

const ids = (items: readonly NewsItem[]) => items.map((item) => item._id)
const isRefresh = (event: { readonly type: string }) => event.type.includes('.refreshes.loading')

/** What the stream's changes do to the store, whatever the state. */
function checkLive(step: StepContext) {
  const { event, snapshot, previous, rig, effects } = step
  const context = storeOf(step)
  const before = previous.context as NewsStoreContext
  // A post waits behind 'N new posts' only while the list does not hold it, and never once the
  // stream said it was deleted.
  for (const item of context.arrivals) {
    expect(ids(context.news)).not.toContain(item._id)
    expect(context.latest[item._id]?.deleted ?? false).toBe(false)
  }
  // One load at a time, of the first post queued.
  if (snapshot.matches({ refreshes: 'loading' })) {
    expect(pendingArgs(rig.news, 'get').at(-1)).toEqual([context.fetches[0]?.id])
  }
  // Live changes never move what the reader looks at: the article's post stays, the list keeps
  // its order and only shows newer versions in place, and no toast pops up.
  if (event.type === 'news.changed' || event.type === 'news.gone' || isRefresh(event)) {
    expect(context.newsItem).toEqual(before.newsItem)
    expect(ids(context.news)).toEqual(ids(before.news))
    expect(effects.toasts).toEqual([])
  }
  if (isRefresh(event) && event.type.startsWith('xstate.done.')) {
    const loaded = payload<NewsItem>(event, 'output')
    const listed = context.news.find((item) => item._id === loaded._id)
    const waiting = context.arrivals.find((item) => item._id === loaded._id)
    const deleted = before.latest[loaded._id]?.deleted ?? false
    if (!deleted) expect(listed ?? waiting).toEqual(loaded)
  }
  if (event.type === 'news.showArrivals') {
    expect(context.arrivals).toEqual([])
    expect(ids(context.news)).toEqual([...ids(before.arrivals), ...ids(before.news)])
  }
  if (event.type === 'news.reset') {
    expect(context.arrivals).toEqual([])
    expect(reloads.get(rig)).toBeGreaterThan(0)
  }
}

const liveChecks = Object.fromEntries(everyState().map((name) => [name, checkLive]))

describe('news store machine, model-based', () => {
  itTakesEachPath(newsStoreModel, paths, async (path) => {
    await runPath(newsStoreModel, path, coverage, (rig) => rig.services.store, checks)
  })
})

describe('news store machine, as the live stream drives it, model-based', () => {
  itTakesEachPath(newsStoreLiveModel, livePaths, async (path) => {
    const start = (rig: Rig) => {
      rig.services.store.on('news.reload', () => reloads.set(rig, (reloads.get(rig) ?? 0) + 1))
      return rig.services.store
    }
    await runPath(newsStoreLiveModel, path, coverage, start, liveChecks)
  })
})

describe('news store machine, coverage', () => {
  it('visits every state and takes every transition', () => expectCoverage(coverage))
})

// What the model paths cannot tell apart: list contents, loads racing saves, queued edits'
// conditions, a base the form gives, and what a later save lets go of.

const item = (id: string, title = `Title ${id}`, revision = 1): NewsItem => ({
  _id: id,
  title,
  body: `Body ${id}`,
  author: 'Ada',
  createdAt: '2026-01-01T12:00:00.000Z',
  updatedAt: '2026-01-01T12:00:00.000Z',
  revision,
})

function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

function startStore() {
  const saves: { input: EditRequest; outcome: ReturnType<typeof deferred<NewsItem>> }[] = []
  const forgottenDrafts: string[] = []
  const actor = createActor(
    newsStoreMachine.provide({
      actors: {
        editNews: fromPromise<NewsItem, EditRequest>(({ input }) => {
          const outcome = deferred<NewsItem>()
          saves.push({ input, outcome })
          return outcome.promise
        }),
      },
      actions: { forgetEditDraft: (_, id) => void forgottenDrafts.push(id) },
    }),
    { input: {} },
  ).start()
  return { actor, saves, forgottenDrafts }
}

const idle = { edits: 'idle' } as const

/** The visitor's edit of post a, saved only over `revision`. */
const editOfA = (changes: EditRequest['changes'], revision: number) =>
  ({ type: 'news.edit', id: 'a', changes, condition: { ifRevision: [revision] } }) as const

describe('news store, beyond the model', () => {
  it('starts holding the list and the post the page was rendered with, before it runs', () => {
    const shown = { ...item('b'), title: 'B on its page' }
    const actor = createActor(newsStoreMachine, {
      input: { news: [item('a'), item('b')], newsItem: shown },
    })
    const { context } = actor.getSnapshot()
    expect(context.news.map((n) => n.title)).toEqual(['Title a', 'B on its page'])
    expect(context.newsItem).toEqual(shown)
    expect(context.arrivals).toEqual([])
  })

  it('replaces the list with a first page and extends it with later pages', () => {
    const { actor } = startStore()
    actor.send({ type: 'get_news', items: [item('a'), item('b')], append: false })
    actor.send({ type: 'get_news', items: [item('b', 'B again'), item('c')], append: true })
    expect(actor.getSnapshot().context.news.map((n) => n.title)).toEqual([
      'Title a',
      'B again',
      'Title c',
    ])
    actor.send({ type: 'get_news', items: [item('z')], append: false })
    expect(actor.getSnapshot().context.news.map((n) => n._id)).toEqual(['z'])
  })
  it('holds a loaded item as newsItem and refreshes it in the list', () => {
    const { actor } = startStore()
    actor.send({ type: 'get_news', items: [item('a')], append: false })
    actor.send({ type: 'get_news_by_id', item: item('a', 'Fresh') })
    const { news, newsItem } = actor.getSnapshot().context
    expect(newsItem?.title).toBe('Fresh')
    expect(news[0]?.title).toBe('Fresh')
  })
  it('saves edits one after another, in the order they were made', async () => {
    const { actor, saves } = startStore()
    actor.send({ type: 'get_news_by_id', item: item('a') })
    actor.send({ type: 'news.edit', id: 'a', changes: { title: 'First' } })
    actor.send({ type: 'news.edit', id: 'a', changes: { body: 'Second' } })
    expect(saves).toHaveLength(1)
    expect(actor.getSnapshot().context.newsItem).toMatchObject({ title: 'First', body: 'Second' })

    saves[0]?.outcome.resolve({ ...item('a'), title: 'First' })
    await waitFor(actor, () => saves.length === 2)
    expect(saves[1]?.input).toEqual({ id: 'a', changes: { body: 'Second' } })
    expect(actor.getSnapshot().context.newsItem).toMatchObject({ title: 'First', body: 'Second' })
  })
  it('keeps a saved edit when a load sent before the save answers after it', async () => {
    const { actor, saves } = startStore()
    actor.send({ type: 'get_news', items: [item('a')], append: false })
    actor.send({ type: 'get_news_by_id', item: item('a') })
    const sentBeforeSave = actor.getSnapshot().context.saves
    actor.send({ type: 'news.edit', id: 'a', changes: { title: 'New' } })
    saves[0]?.outcome.resolve({ ...item('a'), title: 'New' })
    await waitFor(actor, (snapshot) => snapshot.matches(idle))

    actor.send({ type: 'get_news_by_id', item: item('a'), since: sentBeforeSave })
    actor.send({ type: 'get_news', items: [item('a')], append: false, since: sentBeforeSave })
    expect(actor.getSnapshot().context.newsItem?.title).toBe('New')
    expect(actor.getSnapshot().context.news[0]?.title).toBe('New')

    const sentAfterSave = actor.getSnapshot().context.saves
    actor.send({
      type: 'get_news_by_id',
      item: item('a', 'Changed elsewhere'),
      since: sentAfterSave,
    })
    expect(actor.getSnapshot().context.newsItem?.title).toBe('Changed elsewhere')
  })
  it('saves an edit only over the revision the form showed, and forgets its draft once saved', async () => {
    const { actor, saves, forgottenDrafts } = startStore()
    actor.send({ type: 'get_news_by_id', item: item('a') })
    actor.send(editOfA({ title: 'New' }, 1))
    expect(saves[0]?.input).toEqual({
      id: 'a',
      changes: { title: 'New' },
      condition: { ifRevision: [1] },
    })
    expect(forgottenDrafts).toEqual([])

    saves[0]?.outcome.resolve(item('a', 'New', 2))
    await waitFor(actor, (snapshot) => snapshot.matches(idle))
    expect(forgottenDrafts).toEqual(['a'])
  })
  it('keeps the text of an edit refused as stale in memory, against the version it started from', async () => {
    const { actor, saves, forgottenDrafts } = startStore()
    actor.send({ type: 'get_news_by_id', item: item('a') })
    const mine = { title: 'Mine', author: 'Ada', body: 'Body a' }
    const base = { title: 'Older', author: 'Ada', body: 'Body a' }
    actor.send({ type: 'news.edit', id: 'a', changes: mine, condition: { ifRevision: [1] }, base })

    saves[0]?.outcome.reject(stale(item('a', 'Theirs', 2)))
    await waitFor(actor, (snapshot) => snapshot.matches(idle))

    expect(actor.getSnapshot().context.unsaved).toEqual({
      a: { values: mine, base, revision: 1, reason: 'stale' },
    })
    expect(forgottenDrafts).toEqual([])
    // The edit form took it back: the memory lets go of it.
    actor.send({ type: 'news.unsavedTaken', id: 'a' })
    expect(actor.getSnapshot().context.unsaved).toEqual({})
  })
  it('lets go of the refused text once an edit of that post is saved', async () => {
    const { actor, saves } = startStore()
    actor.send({ type: 'get_news_by_id', item: item('a') })
    actor.send(editOfA({ title: 'Mine' }, 1))
    saves[0]?.outcome.reject(stale(item('a', 'Theirs', 2)))
    await waitFor(actor, (snapshot) => snapshot.matches(idle))
    actor.send(editOfA({ title: 'Mine' }, 2))

    saves[1]?.outcome.resolve(item('a', 'Mine', 3))
    await waitFor(actor, (snapshot) => snapshot.matches(idle))

    expect(actor.getSnapshot().context.unsaved).toEqual({})
  })
  it('sends the visitor’s queued edits over the revision their own earlier edit saved', async () => {
    const { actor, saves } = startStore()
    actor.send({ type: 'get_news_by_id', item: item('a') })
    const condition = { ifRevision: [1] }
    actor.send({ type: 'news.edit', id: 'a', changes: { title: 'First' }, condition })
    actor.send({ type: 'news.edit', id: 'a', changes: { body: 'Second' }, condition })

    saves[0]?.outcome.resolve(item('a', 'First', 2))
    await waitFor(actor, () => saves.length === 2)
    expect(saves[1]?.input.condition).toEqual({ ifRevision: [2] })
  })
})
