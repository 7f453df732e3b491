import { createActor, fromPromise, waitFor } from 'xstate'
import type { ContactMessage } from '@/domain/contact-message.entity'
import { rateLimited, stale, type DomainError } from '@/domain/domain-error'
import type { NewsDraft, NewsItem } from '@/domain/news-item.entity'
import { articleMachine, type DeleteRequest } from '@/ui/features/article/article.machine'
import { contactFormMachine } from '@/ui/features/contact/contact-form.machine'
import { newsFormMachine, type CreateRequest } from '@/ui/features/news-form/news-form.machine'
import type { NavigateParams } from '@/ui/shared/machine-effects'

const item: NewsItem = {
  _id: 'a',
  title: 'Harbour reopens',
  body: 'Boats are back.',
  author: 'Ada',
  createdAt: '2026-01-01T12:00:00.000Z',
  updatedAt: '2026-01-01T12:00:00.000Z',
  revision: 4,
}
const draft: NewsDraft = { title: 'Harbour reopens', body: 'Boats are back.', author: 'Ada' }
const unavailable: DomainError = { code: 'Unavailable' }
const notFound: DomainError = { code: 'NotFound' }

/** A promise actor answering from a script of outcomes, one per call. */
function scripted<Output, Input>(outcomes: (Output | { error: DomainError })[]) {
  const calls: Input[] = []
  const logic = fromPromise<Output, Input>(async ({ input }) => {
    calls.push(input)
    if (outcomes.length === 0) throw new Error('no outcome scripted')
    const outcome = outcomes.shift()
    if (typeof outcome === 'object' && outcome !== null && 'error' in outcome) throw outcome.error
    return outcome as Output
  })
  return { logic, calls }
}

function recorder() {
  const effects: unknown[] = []
  return {
    effects,
    actions: {
      showToast: (_: unknown, params: unknown) => void effects.push(['toast', params]),
      navigate: (_: unknown, params: NavigateParams) => void effects.push(['navigate', params]),
    },
  }
}

describe('article machine', () => {
  it('stores the loaded item, deletes it, says so and goes home', async () => {
    const getNewsItem = scripted<NewsItem, string>([item])
    const deleteNews = scripted<void, DeleteRequest>([undefined])
    const { effects, actions } = recorder()
    const forgotten: string[] = []
    const stored: NewsItem[] = []
    const actor = createActor(
      articleMachine.provide({
        actors: { getNewsItem: getNewsItem.logic, deleteNews: deleteNews.logic },
        actions: {
          ...actions,
          storeItem: (_, loaded) => void stored.push(loaded),
          forgetItem: (_, id) => void forgotten.push(id),
        },
      }),
      { input: { id: 'a' } },
    ).start()
    await waitFor(actor, (s) => s.matches('viewing'))
    expect(stored).toEqual([item])
    actor.send({ type: 'article.delete', revision: item.revision })
    await waitFor(actor, (s) => s.status === 'done')
    // Only the revision the article showed may be deleted.
    expect(deleteNews.calls).toEqual([{ id: 'a', condition: { ifRevision: [4] } }])
    expect(forgotten).toEqual(['a'])
    expect(effects).toEqual([
      [
        'toast',
        {
          kind: 'success',
          message: 'successfully deleted news post',
          action: { label: 'Undo', intent: { type: 'news.restore', id: 'a' } },
        },
      ],
      ['navigate', { to: '/', replace: true }],
    ])
  })

  it('stays on the article with an error toast when deleting fails', async () => {
    const { effects, actions } = recorder()
    const actor = createActor(
      articleMachine.provide({
        actors: {
          getNewsItem: scripted<NewsItem, string>([item]).logic,
          deleteNews: scripted<void, DeleteRequest>([{ error: unavailable }]).logic,
        },
        actions,
      }),
      { input: { id: 'a' } },
    ).start()
    await waitFor(actor, (s) => s.matches('viewing'))
    actor.send({ type: 'article.delete' })
    await waitFor(actor, (s) => s.matches('viewing') && effects.length > 0)
    expect(effects).toEqual([
      [
        'toast',
        { kind: 'error', message: 'something went wrong while deleting the post, try again later' },
      ],
    ])
  })

  it('leaves for home with the not-available toast for an unknown id', async () => {
    const { effects, actions } = recorder()
    const actor = createActor(
      articleMachine.provide({
        actors: { getNewsItem: scripted<NewsItem, string>([{ error: notFound }]).logic },
        actions,
      }),
      { input: { id: 'missing' } },
    ).start()
    await waitFor(actor, (s) => s.status === 'done')
    expect(effects).toEqual([
      ['toast', { kind: 'error', message: 'sorry, this page is not available' }],
      ['navigate', { to: '/', replace: true }],
    ])
  })

  it('offers a retry when the article cannot be loaded', async () => {
    const getNewsItem = scripted<NewsItem, string>([{ error: unavailable }, item])
    const actor = createActor(
      articleMachine.provide({ actors: { getNewsItem: getNewsItem.logic } }),
      {
        input: { id: 'a' },
      },
    ).start()
    await waitFor(actor, (s) => s.matches('failed'))
    actor.send({ type: 'article.retry' })
    await waitFor(actor, (s) => s.matches('viewing'))
  })
})

describe('news form machine', () => {
  it('creates a valid post, says so, resets the form and goes home', async () => {
    const createNews = scripted<NewsItem, CreateRequest>([item])
    const { effects, actions } = recorder()
    let resets = 0
    const actor = createActor(
      newsFormMachine.provide({
        actors: { createNews: createNews.logic },
        actions: { ...actions, resetForm: () => void (resets += 1) },
      }),
      { input: {} },
    ).start()
    expect(actor.getSnapshot().value).toBe('editing')
    actor.send({ type: 'form.submit', values: draft })
    await waitFor(actor, (s) => s.status === 'done')
    expect(createNews.calls).toEqual([{ draft }])
    expect(resets).toBe(1)
    expect(effects).toEqual([
      ['toast', { kind: 'success', message: 'successfully added news post' }],
      ['navigate', { to: '/', replace: true }],
    ])
  })

  it('refuses invalid values without calling the server', () => {
    const createNews = scripted<NewsItem, CreateRequest>([])
    const actor = createActor(
      newsFormMachine.provide({ actors: { createNews: createNews.logic } }),
      {
        input: {},
      },
    ).start()
    actor.send({ type: 'form.submit', values: { title: ' ', body: 'x', author: 'y' } })
    expect(actor.getSnapshot().value).toBe('editing')
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ title: 'Sorry, title is required' })
    expect(createNews.calls).toEqual([])
  })

  it('stays on the form with the server’s field messages and an error toast when creating fails', async () => {
    const refused: DomainError = {
      code: 'ValidationFailed',
      fields: { title: 'Sorry, title is required' },
    }
    const { effects, actions } = recorder()
    let resets = 0
    const actor = createActor(
      newsFormMachine.provide({
        actors: { createNews: scripted<NewsItem, CreateRequest>([{ error: refused }]).logic },
        actions: { ...actions, resetForm: () => void (resets += 1) },
      }),
      { input: {} },
    ).start()
    actor.send({ type: 'form.submit', values: draft })
    await waitFor(actor, (s) => s.matches('editing') && effects.length > 0)
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ title: 'Sorry, title is required' })
    expect(resets).toBe(0)
    expect(effects).toEqual([
      [
        'toast',
        {
          kind: 'error',
          message: 'something went wrong while creating the news post, try again later',
        },
      ],
    ])
  })

  it('loads the post to edit, then hands the edit to the store and goes to the article at once', async () => {
    const { effects, actions } = recorder()
    const edits: unknown[] = []
    const actor = createActor(
      newsFormMachine.provide({
        actors: { getNewsItem: scripted<NewsItem, string>([item]).logic },
        actions: { ...actions, requestEdit: (_, params) => void edits.push(params) },
      }),
      { input: { id: 'a' } },
    ).start()
    expect(actor.getSnapshot().value).toBe('loading')
    await waitFor(actor, (s) => s.matches('editing'))
    actor.send({ type: 'form.submit', values: { ...draft, title: 'Changed' } })
    expect(actor.getSnapshot().status).toBe('done')
    expect(edits).toEqual([{ id: 'a', changes: { ...draft, title: 'Changed' } }])
    expect(effects).toEqual([['navigate', { to: '/news/a' }]])
  })

  it('leaves for home when the post to edit does not exist', async () => {
    const { effects, actions } = recorder()
    const actor = createActor(
      newsFormMachine.provide({
        actors: { getNewsItem: scripted<NewsItem, string>([{ error: notFound }]).logic },
        actions,
      }),
      { input: { id: 'missing' } },
    ).start()
    await waitFor(actor, (s) => s.status === 'done')
    expect(effects).toEqual([
      ['toast', { kind: 'error', message: 'sorry, this page is not available' }],
      ['navigate', { to: '/', replace: true }],
    ])
  })
})

describe('contact form machine', () => {
  const message: ContactMessage = { name: 'Ada', email: 'ada@example.com', message: 'Hello' }

  it('sends a valid message, says so and resets the form', async () => {
    const send = scripted<void, ContactMessage>([undefined])
    const { effects, actions } = recorder()
    let resets = 0
    const actor = createActor(
      contactFormMachine.provide({
        actors: { sendContactMessage: send.logic },
        actions: { ...actions, resetForm: () => void (resets += 1) },
      }),
    ).start()
    actor.send({ type: 'contact.submit', values: message })
    await waitFor(actor, (s) => s.matches('editing') && effects.length > 0)
    expect(send.calls).toEqual([message])
    expect(resets).toBe(1)
    expect(effects).toEqual([
      ['toast', { kind: 'success', message: 'successfully sent the email' }],
    ])
  })

  it('sends nothing while the message is invalid', () => {
    const send = scripted<void, ContactMessage>([])
    const actor = createActor(
      contactFormMachine.provide({ actors: { sendContactMessage: send.logic } }),
    ).start()
    actor.send({ type: 'contact.submit', values: { ...message, email: 'nope' } })
    expect(send.calls).toEqual([])
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: 'Invalid email address' })
  })

  it('keeps the form and shows an error toast when sending fails', async () => {
    const { effects, actions } = recorder()
    let resets = 0
    const actor = createActor(
      contactFormMachine.provide({
        actors: {
          sendContactMessage: scripted<void, ContactMessage>([{ error: unavailable }]).logic,
        },
        actions: { ...actions, resetForm: () => void (resets += 1) },
      }),
    ).start()
    actor.send({ type: 'contact.submit', values: message })
    await waitFor(actor, (s) => s.matches('editing') && effects.length > 0)
    expect(resets).toBe(0)
    expect(effects).toEqual([
      ['toast', { kind: 'error', message: 'something went wrong, please try again later' }],
    ])
  })
})

describe('nothing is lost', () => {
  const newer: NewsItem = { ...item, title: 'Harbour closes again', revision: 5 }

  it('keeps the article and shows the stored post when it was changed before the delete', async () => {
    const { effects, actions } = recorder()
    const stored: NewsItem[] = []
    const deleteNews = scripted<void, DeleteRequest>([{ error: stale(newer) }])
    const actor = createActor(
      articleMachine.provide({
        actors: {
          getNewsItem: scripted<NewsItem, string>([item]).logic,
          deleteNews: deleteNews.logic,
        },
        actions: { ...actions, storeItem: (_, shown) => void stored.push(shown) },
      }),
      { input: { id: 'a' } },
    ).start()
    await waitFor(actor, (s) => s.matches('viewing'))
    actor.send({ type: 'article.delete', revision: item.revision })
    await waitFor(actor, (s) => s.matches('viewing') && effects.length > 0)

    expect(deleteNews.calls).toEqual([{ id: 'a', condition: { ifRevision: [4] } }])
    expect(stored).toEqual([item, newer])
    expect(effects).toEqual([
      [
        'toast',
        {
          kind: 'error',
          message: 'this post was changed by someone else meanwhile, so it was not deleted',
          action: { label: 'Review', intent: { type: 'navigate', to: '/news/a/history' } },
        },
      ],
    ])
  })

  it('says when to try again when the write limit refuses a delete', async () => {
    const { effects, actions } = recorder()
    const actor = createActor(
      articleMachine.provide({
        actors: {
          getNewsItem: scripted<NewsItem, string>([item]).logic,
          deleteNews: scripted<void, DeleteRequest>([{ error: rateLimited(42) }]).logic,
        },
        actions,
      }),
      { input: { id: 'a' } },
    ).start()
    await waitFor(actor, (s) => s.matches('viewing'))
    actor.send({ type: 'article.delete', revision: item.revision })
    await waitFor(actor, (s) => s.matches('viewing') && effects.length > 0)
    expect(effects).toEqual([
      [
        'toast',
        { kind: 'error', message: 'too many changes from your address, try again in 42 seconds' },
      ],
    ])
  })

  it('sends one idempotency key per submission and the same key when the same post is retried', async () => {
    const createNews = scripted<NewsItem, CreateRequest>([
      { error: unavailable },
      { error: unavailable },
      item,
    ])
    const actor = createActor(
      newsFormMachine.provide({ actors: { createNews: createNews.logic } }),
      {
        input: {},
      },
    ).start()
    actor.send({ type: 'form.submit', values: draft, idempotencyKey: 'key-1' })
    await waitFor(actor, (s) => s.matches('editing'))
    // A retry of the same post after a failure (a timeout, say) reuses the key.
    actor.send({ type: 'form.submit', values: draft, idempotencyKey: 'key-2' })
    await waitFor(actor, (s) => s.matches('editing'))
    // Other values are another submission, with its own key.
    const changed = { ...draft, title: 'Harbour reopens at dawn' }
    actor.send({ type: 'form.submit', values: changed, idempotencyKey: 'key-3' })
    await waitFor(actor, (s) => s.status === 'done')

    expect(createNews.calls).toEqual([
      { draft, idempotencyKey: 'key-1' },
      { draft, idempotencyKey: 'key-1' },
      { draft: changed, idempotencyKey: 'key-3' },
    ])
  })

  it('forgets the add form’s draft once the post is created, and keeps it when creating fails', async () => {
    let clears = 0
    const { effects, actions } = recorder()
    const actor = createActor(
      newsFormMachine.provide({
        actors: {
          createNews: scripted<NewsItem, CreateRequest>([{ error: rateLimited(1) }, item]).logic,
        },
        actions: { ...actions, clearDraft: () => void (clears += 1) },
      }),
      { input: {} },
    ).start()
    actor.send({ type: 'form.submit', values: draft, idempotencyKey: 'key-1' })
    await waitFor(actor, (s) => s.matches('editing') && effects.length > 0)
    expect(clears).toBe(0)
    expect(effects).toEqual([
      [
        'toast',
        { kind: 'error', message: 'too many changes from your address, try again in 1 second' },
      ],
    ])
    actor.send({ type: 'form.submit', values: draft, idempotencyKey: 'key-2' })
    await waitFor(actor, (s) => s.status === 'done')
    expect(clears).toBe(1)
  })

  it('hands the store an edit of the revision the form showed', async () => {
    const edits: unknown[] = []
    const actor = createActor(
      newsFormMachine.provide({
        actors: { getNewsItem: scripted<NewsItem, string>([item]).logic },
        actions: { requestEdit: (_, params) => void edits.push(params) },
      }),
      { input: { id: 'a' } },
    ).start()
    await waitFor(actor, (s) => s.matches('editing'))
    actor.send({ type: 'form.submit', values: draft, revision: 5 })
    expect(edits).toEqual([{ id: 'a', changes: draft, condition: { ifRevision: [5] } }])
  })

  it('forgets the contact form’s draft once the message is sent, and says when to try again', async () => {
    const message: ContactMessage = { name: 'Ada', email: 'ada@example.com', message: 'Hello' }
    let clears = 0
    const { effects, actions } = recorder()
    const actor = createActor(
      contactFormMachine.provide({
        actors: {
          sendContactMessage: scripted<void, ContactMessage>([{ error: rateLimited(3) }, undefined])
            .logic,
        },
        actions: { ...actions, clearDraft: () => void (clears += 1) },
      }),
    ).start()
    actor.send({ type: 'contact.submit', values: message })
    await waitFor(actor, (s) => s.matches('editing') && effects.length > 0)
    expect(clears).toBe(0)
    actor.send({ type: 'contact.submit', values: message })
    await waitFor(actor, () => effects.length > 1)
    expect(clears).toBe(1)
    expect(effects).toEqual([
      [
        'toast',
        { kind: 'error', message: 'too many changes from your address, try again in 3 seconds' },
      ],
      ['toast', { kind: 'success', message: 'successfully sent the email' }],
    ])
  })
})
