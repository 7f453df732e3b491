import { CreateNews } from '@/application/create-news.use-case'
import { DeleteNews } from '@/application/delete-news.use-case'
import { EditNews } from '@/application/edit-news.use-case'
import { GetNewsItem } from '@/application/get-news-item.use-case'
import { ListChanges } from '@/application/list-changes.use-case'
import { ListNews } from '@/application/list-news.use-case'
import { ListRevisions } from '@/application/list-revisions.use-case'
import { ListTrash } from '@/application/list-trash.use-case'
import { RestoreNews } from '@/application/restore-news.use-case'
import { RestoreRevision } from '@/application/restore-revision.use-case'
import { SearchNews } from '@/application/search-news.use-case'
import { UndoChange } from '@/application/undo-change.use-case'
import { SendContactMessage } from '@/application/send-contact-message.use-case'

import type { Mailer } from '@/domain/ports/mailer.port'
import type { NewsRepository } from '@/domain/ports/news-repository.port'

/** Everything a driving side (the screens or the API routes) can ask of the core. */
export interface UseCases {
  readonly listNews: ListNews
  readonly searchNews: SearchNews
  readonly getNewsItem: GetNewsItem
  readonly createNews: CreateNews
  readonly editNews: EditNews
  readonly deleteNews: DeleteNews
  readonly listTrash: ListTrash
  readonly restoreNews: RestoreNews
  readonly listRevisions: ListRevisions
  readonly restoreRevision: RestoreRevision
  readonly listChanges: ListChanges
  readonly undoChange: UndoChange
  readonly sendContactMessage: SendContactMessage
}

/** The ports the use cases need; each composition root (and each test) picks their adapters. */
export interface CorePorts {
  readonly news: NewsRepository
  readonly mailer: Mailer
}

/** Every use case over the given ports: the one place that says which use case needs which. */
export function useCasesFor({ news, mailer }: CorePorts): UseCases {
  return {
    listNews: new ListNews(news),
    searchNews: new SearchNews(news),
    getNewsItem: new GetNewsItem(news),
    createNews: new CreateNews(news),
    editNews: new EditNews(news),
    deleteNews: new DeleteNews(news),
    listTrash: new ListTrash(news),
    restoreNews: new RestoreNews(news),
    listRevisions: new ListRevisions(news),
    restoreRevision: new RestoreRevision(news),
    listChanges: new ListChanges(news),
    undoChange: new UndoChange(news),
    sendContactMessage: new SendContactMessage(mailer),
  }
}
