/**
 * In-memory ports whose every call waits until the test answers it, so that a model path
 * decides each use case's outcome: the value it returns, or the domain error it fails with.
 * The real use cases run on top, bound as the composition roots bind them.
 */
import { Container, ContainerModule } from 'inversify'
import type { UseCases } from '@/application/use-cases'
import type { ContactMessage } from '@/domain/contact-message.entity'
import { DomainErrorException, type DomainError } from '@/domain/domain-error'
import type { NewsChanges, NewsDraft, NewsItem } from '@/domain/news-item.entity'
import type { Mailer } from '@/domain/ports/mailer.port'
import type {
  ChangePage,
  ChangesQuery,
  CreateOptions,
  NewsPage,
  NewsPageQuery,
  NewsRepository,
  RevisionPage,
  TrashPage,
} from '@/domain/ports/news-repository.port'
import type { WriteCondition } from '@/domain/rules/news-history.rules'
import type { SearchQuery } from '@/domain/rules/search-query.rules'
import { PORTS, USE_CASES, useCasesModule } from '@/composition/core.module'

export type Operation =
  | 'list'
  | 'search'
  | 'get'
  | 'create'
  | 'update'
  | 'remove'
  | 'restore'
  | 'revisions'
  | 'restoreRevision'
  | 'trash'
  | 'changes'
  | 'send'

/** The port operation behind each use case the machines invoke (by actor name). */
export const OPERATION_OF: Readonly<Record<string, Operation>> = {
  listNews: 'list',
  searchNews: 'search',
  getNewsItem: 'get',
  createNews: 'create',
  editNews: 'update',
  deleteNews: 'remove',
  restoreNews: 'restore',
  listRevisions: 'revisions',
  restoreRevision: 'restoreRevision',
  listTrash: 'trash',
  listChanges: 'changes',
  sendContactMessage: 'send',
}

export interface PortCall {
  readonly operation: Operation
  readonly input: unknown
  answered: boolean
  readonly resolve: (value: unknown) => void
  readonly reject: (error: unknown) => void
}

export class ScriptedPorts {
  readonly calls: PortCall[] = []

  readonly news: NewsRepository = {
    list: (query: NewsPageQuery) => this.call<NewsPage>('list', query),
    search: (query: SearchQuery, page: NewsPageQuery) =>
      this.call<NewsPage>('search', { query, page }),
    get: (id: string) => this.call<NewsItem>('get', id),
    // Each call records what reached the port, conditions and keys included.
    create: (draft: NewsDraft, options: CreateOptions = {}) =>
      this.call<NewsItem>('create', { draft, ...options }),
    update: (id: string, changes: NewsChanges, condition?: WriteCondition) =>
      this.call<NewsItem>('update', { id, changes, ...(condition ? { condition } : {}) }),
    remove: (id: string, condition?: WriteCondition) =>
      this.call<void>('remove', { id, ...(condition ? { condition } : {}) }),
    restore: (id: string) => this.call<NewsItem>('restore', id),
    revisions: (id: string) => this.call<RevisionPage>('revisions', id),
    restoreRevision: (id: string, revision: number) =>
      this.call<NewsItem>('restoreRevision', { id, revision }),
    trash: (query: NewsPageQuery) => this.call<TrashPage>('trash', query),
    changes: (query: ChangesQuery) => this.call<ChangePage>('changes', query),
  }

  readonly mailer: Mailer = {
    send: (message: ContactMessage) => this.call<void>('send', message),
  }

  pending(operation?: Operation): PortCall[] {
    return this.calls.filter(
      (call) => !call.answered && (operation === undefined || call.operation === operation),
    )
  }

  /**
   * Answers the newest open call of `operation`, as the model's outcome says. A machine makes
   * one call of an operation at a time, except that a transition may abandon a call and make it
   * again (the list's reload): the abandoned call's answer would reach no one.
   */
  answer(
    operation: Operation,
    outcome: { ok: true; value: unknown } | { ok: false; error: DomainError },
  ): PortCall {
    const call = this.pending(operation).at(-1)
    if (call === undefined) throw new Error(`the machine made no ${operation} call to answer`)
    call.answered = true
    if (outcome.ok) call.resolve(outcome.value)
    else call.reject(new DomainErrorException(outcome.error))
    return call
  }

  private call<T>(operation: Operation, input: unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.calls.push({
        operation,
        input,
        answered: false,
        resolve: (value) => resolve(value as T),
        reject,
      })
    })
  }
}

/** The core's use cases on scripted ports, bound by the same module as in the app. */
export function scriptedUseCases(ports: ScriptedPorts): UseCases {
  const container = new Container()
  container.load(
    new ContainerModule(({ bind }) => {
      bind(PORTS.newsRepository).toConstantValue(ports.news)
      bind(PORTS.mailer).toConstantValue(ports.mailer)
    }),
    useCasesModule,
  )
  return container.get(USE_CASES)
}
