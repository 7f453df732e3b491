import type { DomainError } from '@/domain/domain-error'
import type { NewsItem } from '@/domain/news-item.entity'
import { NOTICES, TOAST_ACTIONS } from '@/ui/shared/notices'
import type { NewsStoreContext } from '@/ui/store/news-store.types'
import { newsStoreMachine } from '@/ui/store/news-store.machine'
import { overlay } from '@/ui/store/news-store.logic'
import { newsStoreLiveModel } from './live-models'
import { pendingArgs, runPath, type Rig, type StepContext } from './machine-rig'
import {
  CoverageRecorder,
  describePath,
  formatCoverage,
  payload,
  transitionPaths,
} from './model-harness'
import { HARBOUR, HARBOUR_CHANGED, newsStoreModel, RETRY_AFTER_SECONDS } from './models'

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
  expect(effects.toasts).toEqual([
    {
      kind: 'error',
      message:
        error.code === 'RateLimited'
          ? NOTICES.rateLimited(RETRY_AFTER_SECONDS)
          : NOTICES.tryAgainLater,
    },
  ])
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
    // The post is back in its place in the list, and the visitor is told.
    expect(context.news.filter((item) => item._id === HARBOUR._id)).toHaveLength(1)
    expect(effects.toasts).toEqual([{ kind: 'success', message: NOTICES.restored }])
  } else {
    const error = payload<DomainError>(event, 'error')
    expect(effects.toasts).toEqual([
      {
        kind: 'error',
        message:
          error.code === 'RateLimited'
            ? NOTICES.rateLimited(RETRY_AFTER_SECONDS)
            : NOTICES.restoreFailed,
      },
    ])
  }
}

const checkStore = (step: StepContext) => {
  checkEdits(step)
  checkRestores(step)
  if (step.event.type === 'news.unsavedTaken') {
    expect(storeOf(step).unsaved).toEqual({})
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
  it.each(paths.map((path) => [describePath(newsStoreModel, path), path] as const))(
    '%s',
    async (_, path) => {
      await runPath(newsStoreModel, path, coverage, (rig) => rig.services.store, checks)
    },
  )
})

describe('news store machine, as the live stream drives it, model-based', () => {
  it.each(livePaths.map((path) => [describePath(newsStoreLiveModel, path), path] as const))(
    '%s',
    async (_, path) => {
      const start = (rig: Rig) => {
        rig.services.store.on('news.reload', () => reloads.set(rig, (reloads.get(rig) ?? 0) + 1))
        return rig.services.store
      }
      await runPath(newsStoreLiveModel, path, coverage, start, liveChecks)
    },
  )
})

describe('news store machine, coverage', () => {
  it('visits every state and takes every transition', () => {
    const report = coverage.report()
    console.info(formatCoverage(newsStoreMachine, report))
    expect(report.states.missed).toEqual([])
    expect(report.transitions.missed).toEqual([])
  })
})
