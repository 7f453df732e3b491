import { createActor, fromPromise, waitFor } from 'xstate'
import { notFound, rateLimited, stale } from '@/domain/domain-error'
import type { NewsItem } from '@/domain/news-item.entity'
import type { ToastParams } from '@/ui/shared/machine-effects'
import type { EditRequest } from '@/ui/store/news-store.types'
import { newsStoreMachine } from '@/ui/store/news-store.machine'

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
  const restores: { input: string; outcome: ReturnType<typeof deferred<NewsItem>> }[] = []
  const toasts: ToastParams[] = []
  const forgottenDrafts: string[] = []
  const actor = createActor(
    newsStoreMachine.provide({
      actors: {
        editNews: fromPromise<NewsItem, EditRequest>(({ input }) => {
          const outcome = deferred<NewsItem>()
          saves.push({ input, outcome })
          return outcome.promise
        }),
        restoreNews: fromPromise<NewsItem, string>(({ input }) => {
          const outcome = deferred<NewsItem>()
          restores.push({ input, outcome })
          return outcome.promise
        }),
      },
      actions: {
        showToast: (_, params) => void toasts.push(params),
        forgetEditDraft: (_, id) => void forgottenDrafts.push(id),
      },
    }),
  ).start()
  return { actor, saves, restores, toasts, forgottenDrafts }
}

const idle = { edits: 'idle' } as const

describe('news store', () => {
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

  it('shows an edit at once, then the saved item and a success toast', async () => {
    const { actor, saves, toasts } = startStore()
    actor.send({ type: 'get_news_by_id', item: item('a') })
    actor.send({ type: 'news.edit', id: 'a', changes: { title: 'New' } })
    expect(actor.getSnapshot().context.newsItem?.title).toBe('New')
    expect(actor.getSnapshot().matches({ edits: 'saving' })).toBe(true)
    expect(saves[0]?.input).toEqual({ id: 'a', changes: { title: 'New' } })

    saves[0]?.outcome.resolve({ ...item('a'), title: 'New' })
    await waitFor(actor, (snapshot) => snapshot.matches(idle))
    expect(actor.getSnapshot().context.newsItem?.title).toBe('New')
    expect(toasts).toEqual([{ kind: 'success', message: 'successfully edited news post' }])
  })

  it('keeps showing a pending edit when the article reloads the old values', () => {
    const { actor } = startStore()
    actor.send({ type: 'get_news_by_id', item: item('a') })
    actor.send({ type: 'news.edit', id: 'a', changes: { title: 'New' } })
    actor.send({ type: 'get_news_by_id', item: item('a', 'Old from server') })
    expect(actor.getSnapshot().context.newsItem?.title).toBe('New')
  })

  it('shows the stored values again and an error toast when an edit fails', async () => {
    const { actor, saves, toasts } = startStore()
    actor.send({ type: 'get_news', items: [item('a')], append: false })
    actor.send({ type: 'get_news_by_id', item: item('a') })
    actor.send({ type: 'news.edit', id: 'a', changes: { title: 'New' } })
    expect(actor.getSnapshot().context.news[0]?.title).toBe('New')

    saves[0]?.outcome.reject({ code: 'Unavailable' })
    await waitFor(actor, (snapshot) => snapshot.matches(idle))
    expect(actor.getSnapshot().context.newsItem?.title).toBe('Title a')
    expect(actor.getSnapshot().context.news[0]?.title).toBe('Title a')
    expect(toasts).toEqual([
      { kind: 'error', message: 'something went wrong, please try again later' },
    ])
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

  it('ignores an edit of an item it has never loaded', () => {
    const { actor, saves } = startStore()
    actor.send({ type: 'news.edit', id: 'unknown', changes: { title: 'New' } })
    expect(saves).toHaveLength(0)
    expect(actor.getSnapshot().value).toEqual({
      edits: 'idle',
      restores: 'idle',
      refreshes: 'idle',
    })
  })

  it('forgets a deleted item', () => {
    const { actor } = startStore()
    actor.send({ type: 'get_news', items: [item('a'), item('b')], append: false })
    actor.send({ type: 'get_news_by_id', item: item('a') })
    actor.send({ type: 'news.removed', id: 'a' })
    expect(actor.getSnapshot().context.news.map((n) => n._id)).toEqual(['b'])
    expect(actor.getSnapshot().context.newsItem).toBeNull()
  })

  it('saves an edit only over the revision the form showed, and forgets its draft once saved', async () => {
    const { actor, saves, forgottenDrafts } = startStore()
    actor.send({ type: 'get_news_by_id', item: item('a') })
    actor.send({
      type: 'news.edit',
      id: 'a',
      changes: { title: 'New' },
      condition: { ifRevision: [1] },
    })
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

  it('shows the stored post everywhere and offers a review when someone saved it meanwhile', async () => {
    const { actor, saves, toasts, forgottenDrafts } = startStore()
    actor.send({ type: 'get_news', items: [item('a'), item('b')], append: false })
    actor.send({ type: 'get_news_by_id', item: item('a') })
    actor.send({
      type: 'news.edit',
      id: 'a',
      changes: { title: 'Mine' },
      condition: { ifRevision: [1] },
    })
    expect(actor.getSnapshot().context.newsItem?.title).toBe('Mine')

    const theirs = item('a', 'Theirs', 2)
    saves[0]?.outcome.reject(stale(theirs))
    await waitFor(actor, (snapshot) => snapshot.matches(idle))
    expect(actor.getSnapshot().context.newsItem).toEqual(theirs)
    expect(actor.getSnapshot().context.news[0]).toEqual(theirs)
    expect(toasts).toEqual([
      {
        kind: 'error',
        message: 'this post was changed by someone else meanwhile, so your edit was not saved',
        action: { label: 'Review', intent: { type: 'navigate', to: '/news/a/edit' } },
      },
    ])
    // The visitor's text waits in the edit form's draft for the review.
    expect(forgottenDrafts).toEqual([])
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

  it('keeps the text of an edit of a post deleted meanwhile, marks the post deleted, and offers Review', async () => {
    const { actor, saves, toasts } = startStore()
    actor.send({ type: 'get_news_by_id', item: item('a') })
    actor.send({ type: 'news.edit', id: 'a', changes: { title: 'Mine' } })

    saves[0]?.outcome.reject(notFound())
    await waitFor(actor, (snapshot) => snapshot.matches(idle))

    const { unsaved, latest, newsItem } = actor.getSnapshot().context
    expect(unsaved.a).toEqual({
      values: { title: 'Mine', author: 'Ada', body: 'Body a' },
      base: { title: 'Title a', author: 'Ada', body: 'Body a' },
      reason: 'deleted',
    })
    expect(latest.a?.deleted).toBe(true)
    expect(newsItem?.title).toBe('Title a')
    expect(toasts).toEqual([
      {
        kind: 'error',
        message: 'this post was deleted meanwhile, so your edit was not saved',
        action: { label: 'Review', intent: { type: 'navigate', to: '/news/a/edit' } },
      },
    ])
  })

  it('lets go of the refused text once an edit of that post is saved', async () => {
    const { actor, saves } = startStore()
    actor.send({ type: 'get_news_by_id', item: item('a') })
    actor.send({
      type: 'news.edit',
      id: 'a',
      changes: { title: 'Mine' },
      condition: { ifRevision: [1] },
    })
    saves[0]?.outcome.reject(stale(item('a', 'Theirs', 2)))
    await waitFor(actor, (snapshot) => snapshot.matches(idle))
    actor.send({
      type: 'news.edit',
      id: 'a',
      changes: { title: 'Mine' },
      condition: { ifRevision: [2] },
    })

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

  it('says when to try again when the write limit refuses an edit', async () => {
    const { actor, saves, toasts } = startStore()
    actor.send({ type: 'get_news_by_id', item: item('a') })
    actor.send({ type: 'news.edit', id: 'a', changes: { title: 'New' } })
    saves[0]?.outcome.reject(rateLimited(1))
    await waitFor(actor, (snapshot) => snapshot.matches(idle))
    expect(toasts).toEqual([
      { kind: 'error', message: 'too many changes from your address, try again in 1 second' },
    ])
    expect(actor.getSnapshot().context.newsItem?.title).toBe('Title a')
  })

  it('brings a deleted post back into its place in the list, and says so', async () => {
    const { actor, restores, toasts } = startStore()
    const older = { ...item('c'), createdAt: '2025-12-01T12:00:00.000Z' }
    const newer = { ...item('a'), createdAt: '2026-02-01T12:00:00.000Z' }
    const middle = item('b')
    actor.send({ type: 'get_news', items: [newer, middle, older], append: false })
    actor.send({ type: 'news.removed', id: 'b' })
    expect(actor.getSnapshot().context.news.map((n) => n._id)).toEqual(['a', 'c'])

    actor.send({ type: 'news.restore', id: 'b' })
    expect(actor.getSnapshot().matches({ restores: 'restoring' })).toBe(true)
    expect(restores.map((call) => call.input)).toEqual(['b'])
    restores[0]?.outcome.resolve({ ...middle, revision: 3 })
    await waitFor(actor, (snapshot) => snapshot.matches({ restores: 'idle' }))

    expect(actor.getSnapshot().context.news.map((n) => n._id)).toEqual(['a', 'b', 'c'])
    expect(toasts).toEqual([{ kind: 'success', message: 'the news post is back' }])
  })

  it('says so when a post cannot be brought back, or when to try again', async () => {
    const { actor, restores, toasts } = startStore()
    actor.send({ type: 'news.restore', id: 'b' })
    restores[0]?.outcome.reject({ code: 'Unavailable' })
    await waitFor(actor, (snapshot) => snapshot.matches({ restores: 'idle' }))
    actor.send({ type: 'news.restore', id: 'b' })
    restores[1]?.outcome.reject(rateLimited(12))
    await waitFor(actor, () => toasts.length === 2)

    expect(actor.getSnapshot().context.news).toEqual([])
    expect(toasts).toEqual([
      { kind: 'error', message: 'something went wrong while restoring the post, try again later' },
      { kind: 'error', message: 'too many changes from your address, try again in 12 seconds' },
    ])
  })
})
