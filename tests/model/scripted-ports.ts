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
import type { NewsPage, NewsPageQuery, NewsRepository } from '@/domain/ports/news-repository.port'
import { PORTS, USE_CASES, useCasesModule } from '@/composition/core.module'

export type Operation = 'list' | 'get' | 'create' | 'update' | 'remove' | 'send'

/** The port operation behind each use case the machines invoke (by actor name). */
export const OPERATION_OF: Readonly<Record<string, Operation>> = {
  listNews: 'list',
  getNewsItem: 'get',
  createNews: 'create',
  editNews: 'update',
  deleteNews: 'remove',
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
    get: (id: string) => this.call<NewsItem>('get', id),
    create: (draft: NewsDraft) => this.call<NewsItem>('create', draft),
    update: (id: string, changes: NewsChanges) => this.call<NewsItem>('update', { id, changes }),
    remove: (id: string) => this.call<void>('remove', id),
  }

  readonly mailer: Mailer = {
    send: (message: ContactMessage) => this.call<void>('send', message),
  }

  pending(operation?: Operation): PortCall[] {
    return this.calls.filter(
      (call) => !call.answered && (operation === undefined || call.operation === operation),
    )
  }

  /** Answers the oldest open call of `operation`, as the model's outcome says. */
  answer(
    operation: Operation,
    outcome: { ok: true; value: unknown } | { ok: false; error: DomainError },
  ): PortCall {
    const [call] = this.pending(operation)
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
