/**
 * The test models of the trash and the history: what a visitor may do and how each use case
 * may answer. xstate/graph walks each machine with these events.
 */
import type { AnyMachineSnapshot } from 'xstate'
import { conflict, notFound, rateLimited, unavailable } from '@/domain/domain-error'
import type { NewsItem, TrashedNewsItem } from '@/domain/news-item.entity'
import type { NewsRevision } from '@/domain/news-revision.entity'
import type { RevisionPage, TrashPage } from '@/domain/ports/news-repository.port'
import { historyMachine } from '@/ui/features/history/history.machine'
import { trashMachine } from '@/ui/features/trash/trash.machine'
import type { Model } from './model-harness'
import { pagedAnswer } from './models'

function trashed(n: number, deletedAt: string): TrashedNewsItem {
  return {
    _id: `trashed-${n}`,
    title: `Trashed post ${n}`,
    body: `The body of trashed post ${n}.`,
    author: `Author ${n}`,
    createdAt: '2025-03-01T09:00:00.000Z',
    updatedAt: deletedAt,
    revision: 2,
    deletedAt,
  }
}

export const PIER = trashed(1, '2025-03-05T10:00:00.000Z')
export const FERRY = trashed(2, '2025-03-04T10:00:00.000Z')
export const LIGHTHOUSE = trashed(3, '2025-03-03T10:00:00.000Z')

export const FIRST_TRASH_PAGE: TrashPage = { items: [PIER, FERRY], next: 'page-2' }
export const LAST_TRASH_PAGE: TrashPage = { items: [LIGHTHOUSE] }

/** PIER as the restore answers it: live again, one revision on. */
export const PIER_RESTORED: NewsItem = {
  _id: PIER._id,
  title: PIER.title,
  body: PIER.body,
  author: PIER.author,
  createdAt: PIER.createdAt,
  updatedAt: '2025-03-05T12:00:00.000Z',
  revision: 3,
}

export const RETRY_AFTER = 30

export const trashModel: Model = {
  machine: trashMachine,
  events: () => [
    { type: 'trash.retry' },
    { type: 'trash.loadMore' },
    { type: 'trash.restore', id: PIER._id },
  ],
  answers: {
    listTrash: pagedAnswer(FIRST_TRASH_PAGE, LAST_TRASH_PAGE),
    restoreNews: {
      done: () => [PIER_RESTORED],
      errors: [conflict('NotInTrash'), notFound(), rateLimited(RETRY_AFTER), unavailable()],
    },
  },
}

export const POST_ID = 'harbour-news'

const version = (
  revision: number,
  action: NewsRevision['action'],
  title: string,
  body: string,
): NewsRevision => ({
  revision,
  action,
  title,
  body,
  author: 'Ada Brook',
  editor: '3f9a2c0d1e',
  at: `2025-03-0${revision}T09:00:00.000Z`,
})

/** Three versions, newest first. */
export const REVISIONS: readonly NewsRevision[] = [
  version(3, 'edit', 'Harbour reopens at dawn', 'Boats are back on the water.'),
  version(2, 'edit', 'Harbour reopens', 'Boats are back on the water.'),
  version(1, 'create', 'Harbour reopens', 'Boats are back.'),
]

/** The newest versions, and a token for the older ones. */
export const FIRST_HISTORY_PAGE: RevisionPage = { items: REVISIONS.slice(0, 2), next: 'older' }
/** The first version: the end of the history. */
export const LAST_HISTORY_PAGE: RevisionPage = { items: REVISIONS.slice(2) }

/** Version 2 made current again. */
export const RESTORED_ITEM: NewsItem = {
  _id: POST_ID,
  title: 'Harbour reopens',
  body: 'Boats are back on the water.',
  author: 'Ada Brook',
  createdAt: '2025-03-01T09:00:00.000Z',
  updatedAt: '2025-03-05T09:00:00.000Z',
  revision: 4,
}

export const historyModel: Model = {
  machine: historyMachine,
  input: { id: POST_ID },
  events: () => [
    { type: 'history.retry' },
    { type: 'history.loadMore' },
    { type: 'history.restore', revision: 2 },
    // The current version: the machine refuses it.
    { type: 'history.restore', revision: 3 },
  ],
  answers: {
    listRevisions: {
      done: (snapshot: AnyMachineSnapshot) => [
        snapshot.matches('loadingMore') ? LAST_HISTORY_PAGE : FIRST_HISTORY_PAGE,
      ],
      errors: [notFound(), unavailable()],
    },
    restoreRevision: {
      done: () => [RESTORED_ITEM],
      errors: [conflict('InTrash'), notFound(), rateLimited(RETRY_AFTER), unavailable()],
    },
  },
  label: (event) =>
    event.type === 'history.restore'
      ? `version ${(event as { revision?: number }).revision}`
      : undefined,
}
