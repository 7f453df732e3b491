import type { CreateNews } from '@/application/create-news.use-case'
import type { DeleteNews } from '@/application/delete-news.use-case'
import type { EditNews } from '@/application/edit-news.use-case'
import type { GetNewsItem } from '@/application/get-news-item.use-case'
import type { ListNews } from '@/application/list-news.use-case'
import type { ListRevisions } from '@/application/list-revisions.use-case'
import type { ListTrash } from '@/application/list-trash.use-case'
import type { RestoreNews } from '@/application/restore-news.use-case'
import type { RestoreRevision } from '@/application/restore-revision.use-case'
import type { SearchNews } from '@/application/search-news.use-case'
import type { SendContactMessage } from '@/application/send-contact-message.use-case'

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
  readonly sendContactMessage: SendContactMessage
}
