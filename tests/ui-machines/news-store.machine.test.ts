import { createActor, fromPromise, waitFor } from 'xstate'
import type { NewsItem } from '@/domain/news-item.entity'
import type { EditRequest } from '@/ui/shared/news-store.machine'
import { newsStoreMachine } from '@/ui/shared/news-store.machine'

const item = (id: string, title = `Title ${id}`): NewsItem => ({
  _id: id,
  title,
  body: `Body ${id}`,
  author: 'Ada',
  createdAt: '2026-01-01T12:00:00.000Z',
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
  const toasts: { kind: string; message: string }[] = []
  const actor = createActor(
    newsStoreMachine.provide({
      actors: {
        editNews: fromPromise<NewsItem, EditRequest>(({ input }) => {
          const outcome = deferred<NewsItem>()
          saves.push({ input, outcome })
          return outcome.promise
        }),
      },
      actions: { showToast: (_, params) => void toasts.push(params) },
    }),
  ).start()
  return { actor, saves, toasts }
}

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
    expect(actor.getSnapshot().value).toBe('saving')
    expect(saves[0]?.input).toEqual({ id: 'a', changes: { title: 'New' } })

    saves[0]?.outcome.resolve({ ...item('a'), title: 'New' })
    await waitFor(actor, (snapshot) => snapshot.matches('idle'))
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
    await waitFor(actor, (snapshot) => snapshot.matches('idle'))
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
    await waitFor(actor, (snapshot) => snapshot.matches('idle'))

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
    expect(actor.getSnapshot().value).toBe('idle')
  })

  it('forgets a deleted item', () => {
    const { actor } = startStore()
    actor.send({ type: 'get_news', items: [item('a'), item('b')], append: false })
    actor.send({ type: 'get_news_by_id', item: item('a') })
    actor.send({ type: 'news.removed', id: 'a' })
    expect(actor.getSnapshot().context.news.map((n) => n._id)).toEqual(['b'])
    expect(actor.getSnapshot().context.newsItem).toBeNull()
  })
})
