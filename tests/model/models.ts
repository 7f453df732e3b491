/**
 * The test models: for each machine, what a visitor may do and how each use case may answer.
 * xstate/graph walks the machine with these events; the machine tests and the screen tests
 * both run the paths it finds.
 */
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate'
import type { ContactMessage } from '@/domain/contact-message.entity'
import {
  conflict,
  inTrash,
  forbidden,
  notFound,
  rateLimited,
  stale,
  unavailable,
  validationFailed,
  type DomainError,
} from '@/domain/domain-error'
import type { NewsDraft, NewsItem, TrashedNewsItem } from '@/domain/news-item.entity'
import type { NewsPage } from '@/domain/ports/news-repository.port'
import { articleMachine } from '@/ui/features/article/article.machine'
import { contactFormMachine } from '@/ui/features/contact/contact-form.machine'
import { newsFormMachine } from '@/ui/features/news-form/news-form.machine'
import { newsListMachine } from '@/ui/features/news-list/news-list.machine'
import { unknownRouteMachine } from '@/ui/shared/not-available.machine'
import { searchMachine } from '@/ui/features/search/search.machine'
import { NOTICES } from '@/ui/shared/notices'
import type { NewsStoreContext } from '@/ui/store/news-store.types'
import { newsStoreMachine } from '@/ui/store/news-store.machine'
import { overlay } from '@/ui/store/news-store.logic'
import type { Model } from './model-harness'

export const HARBOUR: NewsItem = {
  _id: 'news-harbour',
  title: 'Harbour reopens after the storm',
  body: 'Boats are back on the water after a week of repairs.',
  author: 'Ada Brook',
  createdAt: '2025-03-03T09:00:00.000Z',
  updatedAt: '2025-03-03T09:00:00.000Z',
  revision: 1,
}
/** HARBOUR as someone else saved it meanwhile: a write naming revision 1 is stale. */
export const HARBOUR_CHANGED: NewsItem = {
  ...HARBOUR,
  title: 'Harbour closes again for the winter',
  updatedAt: '2025-03-04T09:00:00.000Z',
  revision: 2,
}
/** HARBOUR in the trash: a read of it is NotFound, naming it. */
export const HARBOUR_TRASHED: TrashedNewsItem = {
  ...HARBOUR,
  deletedAt: '2025-03-05T09:00:00.000Z',
}
const IN_TRASH = inTrash(HARBOUR_TRASHED)
export const MARKET: NewsItem = {
  _id: 'news-market',
  title: 'Night market returns',
  body: 'Forty stalls open on Friday evenings from May.',
  author: 'Ben Carter',
  createdAt: '2025-03-02T09:00:00.000Z',
  updatedAt: '2025-03-02T09:00:00.000Z',
  revision: 1,
}
export const LIBRARY: NewsItem = {
  _id: 'news-library',
  title: 'Library extends its hours',
  body: 'The reading room now stays open until nine.',
  author: 'Cleo Dunn',
  createdAt: '2025-03-01T09:00:00.000Z',
  updatedAt: '2025-03-01T09:00:00.000Z',
  revision: 1,
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
  updatedAt: '2025-03-04T09:00:00.000Z',
  revision: 1,
}
/** The key the add form's submission carries in the models. */
export const SUBMISSION_KEY = 'submission-key-1'

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
/** The write limit's answer: a 429 with Retry-After: 30. */
export const RETRY_AFTER_SECONDS = 30
export const WRITE_LIMIT = rateLimited(RETRY_AFTER_SECONDS)

/** The toast a failed write shows: when to try again for the write limit, else `otherwise`. */
export function failureToast(error: DomainError, otherwise: string) {
  const message =
    error.code === 'RateLimited' ? NOTICES.rateLimited(RETRY_AFTER_SECONDS) : otherwise
  return { kind: 'error', message }
}
/** Someone saved HARBOUR meanwhile. */
export const CHANGED_MEANWHILE = stale(HARBOUR_CHANGED)
/** Someone deleted HARBOUR meanwhile: an edit of it finds no post. */
export const DELETED_MEANWHILE = notFound()
/** The operator blocked this client's writes, until lifted. */
export const BLOCKED = forbidden({ reason: 'blocked', note: 'spam wave', until: null })
/** HARBOUR brought back from the trash: a new revision. */
export const HARBOUR_RESTORED: NewsItem = { ...HARBOUR, revision: 3 }

/** Names the answers that are not plain outages in test names. */
const errorLabel = (event: AnyEventObject): string | undefined => {
  const error = (event as { error?: unknown }).error
  if (error === CHANGED_MEANWHILE) return 'saved meanwhile'
  if (error === DELETED_MEANWHILE) return 'deleted meanwhile'
  if (error === IN_TRASH) return 'in the trash'
  if (error === BLOCKED) return 'blocked'
  return error === WRITE_LIMIT ? 'write limit' : undefined
}

/** A paged list's answer: the first page when it opens, the last for more; or an outage. */
export function pagedAnswer(first: unknown, last: unknown): Model['answers'][string] {
  return {
    done: (snapshot) => [snapshot.matches('loading') ? first : last],
    errors: [unavailable()],
  }
}

export const newsListModel: Model = {
  machine: newsListMachine,
  // news.reload: the live stream missed changes (a reset), sent in any state.
  events: () => [{ type: 'news.retry' }, { type: 'news.loadMore' }, { type: 'news.reload' }],
  answers: { listNews: pagedAnswer(FIRST_PAGE, LAST_PAGE) },
}

/** The search for `q`: a query the rules refuse asks nothing, any other pages like the list. */
export const searchModel = (q: string): Model => ({
  machine: searchMachine,
  input: { q },
  events: () => [{ type: 'search.retry' }, { type: 'search.loadMore' }],
  answers: { searchNews: pagedAnswer(FIRST_PAGE, LAST_PAGE) },
})

export const articleModel = (id: string): Model => ({
  machine: articleMachine,
  input: { id },
  events: () => [
    { type: 'article.retry' },
    { type: 'article.delete', revision: HARBOUR.revision },
    // 'Show the new version', or a reset of the live stream.
    { type: 'article.refresh' },
    // 'Restore it', on the page of a post in the trash.
    { type: 'article.restore' },
  ],
  answers: {
    getNewsItem: { done: () => [HARBOUR], errors: [notFound(), IN_TRASH, unavailable()] },
    deleteNews: {
      done: () => [undefined],
      errors: [unavailable(), CHANGED_MEANWHILE, WRITE_LIMIT],
    },
    restoreNews: {
      done: () => [HARBOUR],
      errors: [conflict('NotInTrash'), notFound(), unavailable()],
    },
  },
  label: errorLabel,
})

/** What the screens send: the edit form the revision it shows, the add form a new key. */
const submit = (values: NewsDraft) => ({
  type: 'form.submit',
  values,
  revision: HARBOUR.revision,
  idempotencyKey: SUBMISSION_KEY,
})

const newsFormEvents = () => [
  { type: 'form.retry' },
  submit(VALID_DRAFT),
  submit(EMPTY_DRAFT),
  submit(LONG_AUTHOR_DRAFT),
  // The edit form of a post deleted meanwhile: its two buttons.
  { type: 'form.restoreAndSave', values: VALID_DRAFT },
  { type: 'form.restoreAndSave', values: EMPTY_DRAFT },
  { type: 'form.saveAsNew', values: VALID_DRAFT, idempotencyKey: SUBMISSION_KEY },
  { type: 'form.saveAsNew', values: EMPTY_DRAFT, idempotencyKey: SUBMISSION_KEY },
]

const newsFormAnswers: Model['answers'] = {
  getNewsItem: { done: () => [HARBOUR], errors: [notFound(), unavailable()] },
  createNews: { done: () => [CREATED], errors: [unavailable(), SERVER_REFUSAL, WRITE_LIMIT] },
  restoreNews: { done: () => [HARBOUR_RESTORED], errors: [unavailable()] },
}

/** The add form (no id) and the edit form (the id of the post to edit). */
export const newsFormModel = (id?: string): Model => ({
  machine: newsFormMachine,
  input: id === undefined ? {} : { id },
  events: newsFormEvents,
  answers: newsFormAnswers,
  label: (event) => sampleLabel(event) ?? errorLabel(event),
})

export const contactFormModel: Model = {
  machine: contactFormMachine,
  events: () => [
    { type: 'contact.submit', values: VALID_MESSAGE },
    { type: 'contact.submit', values: EMPTY_MESSAGE },
    { type: 'contact.submit', values: BAD_EMAIL_MESSAGE },
  ],
  answers: {
    sendContactMessage: { done: () => [undefined], errors: [unavailable(), WRITE_LIMIT] },
  },
  label: (event) => sampleLabel(event) ?? errorLabel(event),
}

const storeContext = (snapshot: AnyMachineSnapshot) => snapshot.context as NewsStoreContext
const MAX_PENDING_EDITS = 2

export const newsStoreModel: Model = {
  machine: newsStoreMachine,
  events: () => [
    { type: 'get_news', items: FIRST_PAGE.items, append: false },
    { type: 'get_news', items: LAST_PAGE.items, append: true },
    { type: 'get_news_by_id', item: HARBOUR },
    {
      type: 'news.edit',
      id: HARBOUR._id,
      changes: EDIT_CHANGES,
      condition: { ifRevision: [HARBOUR.revision] },
    },
    { type: 'news.removed', id: HARBOUR._id },
    { type: 'news.restore', id: HARBOUR._id },
    // The edit form took back the text of a refused edit.
    { type: 'news.unsavedTaken', id: HARBOUR._id },
  ],
  answers: {
    // The server answers an edit with the stored item, the changes applied, as a new revision.
    editNews: {
      done: (snapshot) => {
        const [edit] = storeContext(snapshot).pending
        if (edit === undefined) return []
        return [{ ...overlay(edit.stored, [edit]), revision: edit.stored.revision + 1 }]
      },
      errors: [unavailable(), CHANGED_MEANWHILE, DELETED_MEANWHILE, WRITE_LIMIT, BLOCKED],
    },
    restoreNews: { done: () => [HARBOUR], errors: [unavailable(), WRITE_LIMIT] },
  },
  label: (event) => {
    if (event.type === 'get_news')
      return (event as { append?: boolean }).append ? 'more' : 'first page'
    return errorLabel(event)
  },
  // Edits can pile up without end while one is saving; two in a row show the queue.
  skip: (snapshot, event) =>
    event.type === 'news.edit' && storeContext(snapshot).pending.length >= MAX_PENDING_EDITS,
  // What the guards read (is the item known, do edits wait) and whether an item is shown.
  abstract: (snapshot) => {
    const { news, newsItem, pending, restoring } = storeContext(snapshot)
    return {
      value: snapshot.value,
      knowsHarbour: [newsItem, ...news].some((item) => item?._id === HARBOUR._id),
      showsItem: newsItem !== null,
      pending: pending.length,
      restoring,
    }
  },
}

export const unknownRouteModel: Model = {
  machine: unknownRouteMachine,
  events: () => [],
  answers: {},
}
