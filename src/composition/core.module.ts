import { ContainerModule, type ServiceIdentifier } from 'inversify'
import { CreateNews } from '@/application/create-news.use-case'
import { DeleteNews } from '@/application/delete-news.use-case'
import { EditNews } from '@/application/edit-news.use-case'
import { GetNewsItem } from '@/application/get-news-item.use-case'
import { ListNews } from '@/application/list-news.use-case'
import { ListRevisions } from '@/application/list-revisions.use-case'
import { ListTrash } from '@/application/list-trash.use-case'
import { RestoreNews } from '@/application/restore-news.use-case'
import { RestoreRevision } from '@/application/restore-revision.use-case'
import { SearchNews } from '@/application/search-news.use-case'
import { SendContactMessage } from '@/application/send-contact-message.use-case'
import type { UseCases } from '@/application/use-cases'
import type { Mailer } from '@/domain/ports/mailer.port'
import type { NewsRepository } from '@/domain/ports/news-repository.port'

/** The ports, as service identifiers. Each composition root binds them to its adapters. */
export const PORTS = {
  newsRepository: Symbol.for('NewsRepository') as ServiceIdentifier<NewsRepository>,
  mailer: Symbol.for('Mailer') as ServiceIdentifier<Mailer>,
} as const

export const USE_CASES = Symbol.for('UseCases') as ServiceIdentifier<UseCases>

/**
 * Binds every use case to the ports it needs, the same way in the browser and on the server.
 * Decorator-free bindings keep inversify out of application/ and domain/.
 */
export const useCasesModule = new ContainerModule(({ bind }) => {
  bind(USE_CASES)
    .toResolvedValue(
      (news: NewsRepository, mailer: Mailer): UseCases => ({
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
        sendContactMessage: new SendContactMessage(mailer),
      }),
      [PORTS.newsRepository, PORTS.mailer],
    )
    .inSingletonScope()
})
