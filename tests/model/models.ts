/**
 * The test models: for each machine, what a visitor may do and how each use case may answer.
 * xstate/graph walks the machine with these events; the machine tests and the screen tests
 * both run the paths it finds.
 */
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate'
import type { ContactMessage } from '@/domain/contact-message.entity'
import { notFound, unavailable, validationFailed } from '@/domain/domain-error'
import type { NewsDraft, NewsItem } from '@/domain/news-item.entity'
import type { NewsPage } from '@/domain/ports/news-repository.port'
import { articleMachine } from '@/ui/features/article/article.machine'
import { contactFormMachine } from '@/ui/features/contact/contact-form.machine'
import { newsFormMachine } from '@/ui/features/news-form/news-form.machine'
import { newsListMachine } from '@/ui/features/news-list/news-list.machine'
import { unknownRouteMachine } from '@/ui/features/not-found/unknown-route.machine'
import type { NewsStoreContext } from '@/ui/shared/news-store.machine'
import { newsStoreMachine } from '@/ui/shared/news-store.machine'
import { overlay } from '@/ui/shared/news-store.logic'
import type { Model } from './model-harness'

export const HARBOUR: NewsItem = {
  _id: 'news-harbour',
  title: 'Harbour reopens after the storm',
  body: 'Boats are back on the water after a week of repairs.',
  author: 'Ada Brook',
  createdAt: '2025-03-03T09:00:00.000Z',
}
export const MARKET: NewsItem = {
  _id: 'news-market',
  title: 'Night market returns',
  body: 'Forty stalls open on Friday evenings from May.',
  author: 'Ben Carter',
  createdAt: '2025-03-02T09:00:00.000Z',
}
export const LIBRARY: NewsItem = {
  _id: 'news-library',
  title: 'Library extends its hours',
  body: 'The reading room now stays open until nine.',
  author: 'Cleo Dunn',
  createdAt: '2025-03-01T09:00:00.000Z',
}

export const FIRST_PAGE: NewsPage = { items: [HARBOUR, MARKET], next: MARKET._id }
export const LAST_PAGE: NewsPage = { items: [LIBRARY] }

export const VALID_DRAFT: NewsDraft = {
  title: 'Bridge repairs finish early',
  author: 'Dan Ellis',
  body: 'The old bridge opens again on Monday.',
}
export const EMPTY_DRAFT: NewsDraft = { title: '', author: '', body: '' }
export const LONG_AUTHOR_DRAFT: NewsDraft = { ...VALID_DRAFT, author: 'A'.repeat(31) }
export const CREATED: NewsItem = {
  ...VALID_DRAFT,
  _id: 'news-bridge',
  createdAt: '2025-03-04T09:00:00.000Z',
}

export const VALID_MESSAGE: ContactMessage = {
  name: 'Eve Ford',
  email: 'eve@example.org',
  message: 'Please cover the bridge reopening.',
}
export const EMPTY_MESSAGE: ContactMessage = { name: '', email: '', message: '' }
export const BAD_EMAIL_MESSAGE: ContactMessage = { ...VALID_MESSAGE, email: 'eve-at-example' }

/** Names the samples in test names. */
const SAMPLE_NAMES = new Map<unknown, string>([
  [VALID_DRAFT, 'valid'],
  [EMPTY_DRAFT, 'empty'],
  [LONG_AUTHOR_DRAFT, 'author too long'],
  [VALID_MESSAGE, 'valid'],
  [EMPTY_MESSAGE, 'empty'],
  [BAD_EMAIL_MESSAGE, 'bad email'],
])

const sampleLabel = (event: AnyEventObject): string | undefined =>
  SAMPLE_NAMES.get((event as { values?: unknown }).values)

/** What the server says to a refused post (a 422 with field messages). */
export const SERVER_REFUSAL = validationFailed({ title: 'Must be 100 characters or less' })
export const EDIT_CHANGES = { title: 'Harbour reopens at dawn' }

export const newsListModel: Model = {
  machine: newsListMachine,
  events: () => [{ type: 'news.retry' }, { type: 'news.loadMore' }],
  answers: {
    listNews: {
      done: (snapshot) => [snapshot.matches('loading') ? FIRST_PAGE : LAST_PAGE],
      errors: [unavailable()],
    },
  },
}

export const articleModel = (id: string): Model => ({
  machine: articleMachine,
  input: { id },
  events: () => [{ type: 'article.retry' }, { type: 'article.delete' }],
  answers: {
    getNewsItem: { done: () => [HARBOUR], errors: [notFound(), unavailable()] },
    deleteNews: { done: () => [undefined], errors: [unavailable()] },
  },
})

const newsFormEvents = () => [
  { type: 'form.retry' },
  { type: 'form.submit', values: VALID_DRAFT },
  { type: 'form.submit', values: EMPTY_DRAFT },
  { type: 'form.submit', values: LONG_AUTHOR_DRAFT },
]

const newsFormAnswers: Model['answers'] = {
  getNewsItem: { done: () => [HARBOUR], errors: [notFound(), unavailable()] },
  createNews: { done: () => [CREATED], errors: [unavailable(), SERVER_REFUSAL] },
}

/** The add form (no id) and the edit form (the id of the post to edit). */
export const newsFormModel = (id?: string): Model => ({
  machine: newsFormMachine,
  input: id === undefined ? {} : { id },
  events: newsFormEvents,
  answers: newsFormAnswers,
  label: sampleLabel,
})

export const contactFormModel: Model = {
  machine: contactFormMachine,
  events: () => [
    { type: 'contact.submit', values: VALID_MESSAGE },
    { type: 'contact.submit', values: EMPTY_MESSAGE },
    { type: 'contact.submit', values: BAD_EMAIL_MESSAGE },
  ],
  answers: { sendContactMessage: { done: () => [undefined], errors: [unavailable()] } },
  label: sampleLabel,
}

const storeContext = (snapshot: AnyMachineSnapshot) => snapshot.context as NewsStoreContext
const MAX_PENDING_EDITS = 2

export const newsStoreModel: Model = {
  machine: newsStoreMachine,
  events: () => [
    { type: 'get_news', items: FIRST_PAGE.items, append: false },
    { type: 'get_news', items: LAST_PAGE.items, append: true },
    { type: 'get_news_by_id', item: HARBOUR },
    { type: 'news.edit', id: HARBOUR._id, changes: EDIT_CHANGES },
    { type: 'news.removed', id: HARBOUR._id },
  ],
  answers: {
    // The server answers an edit with the stored item and the changes applied.
    editNews: {
      done: (snapshot) => {
        const [edit] = storeContext(snapshot).pending
        return edit === undefined ? [] : [overlay(edit.stored, [edit])]
      },
      errors: [unavailable()],
    },
  },
  label: (event) => {
    if (event.type === 'get_news')
      return (event as { append?: boolean }).append ? 'more' : 'first page'
    return undefined
  },
  // Edits can pile up without end while one is saving; two in a row show the queue.
  skip: (snapshot, event) =>
    event.type === 'news.edit' && storeContext(snapshot).pending.length >= MAX_PENDING_EDITS,
  // What the guards read (is the item known, do edits wait) and whether an item is shown.
  abstract: (snapshot) => {
    const { news, newsItem, pending } = storeContext(snapshot)
    return {
      value: snapshot.value,
      knowsHarbour: [newsItem, ...news].some((item) => item?._id === HARBOUR._id),
      showsItem: newsItem !== null,
      pending: pending.length,
    }
  },
}

export const unknownRouteModel: Model = {
  machine: unknownRouteMachine,
  events: () => [],
  answers: {},
}
