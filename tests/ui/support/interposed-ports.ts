/**
 * What sits between the app and the in-memory adapters for the flows the adapters cannot show
 * on their own: the server's write limit (429 with Retry-After) and an answer lost on the way
 * back after the server acted (a timeout). The real use cases and repository run underneath;
 * only these transport outcomes are added, as the browser's HTTP adapter reports them.
 */
import { Container, ContainerModule } from 'inversify'
import type { UseCases } from '@/application/use-cases'
import type { MemoryApp } from '@/composition/browser/memory.container'
import { PORTS, USE_CASES, useCasesModule } from '@/composition/core.module'
import { DomainErrorException, rateLimited, unavailable } from '@/domain/domain-error'
import type { Mailer } from '@/domain/ports/mailer.port'
import type { NewsRepository } from '@/domain/ports/news-repository.port'

export type Write = 'create' | 'update' | 'remove' | 'restore' | 'send'

export class Interposer {
  /** Writes the limit refuses, with the seconds its Retry-After names. */
  private readonly limited = new Map<Write, number>()
  /** Writes whose next answer is lost after the server has acted. */
  private readonly lost = new Set<Write>()

  constructor(private readonly app: MemoryApp) {}

  /** The write limit refuses `write` until `lift`. */
  limit(write: Write, retryAfterSeconds: number): void {
    this.limited.set(write, retryAfterSeconds)
  }

  lift(): void {
    this.limited.clear()
  }

  /** The next `write` reaches the server, but its answer never comes back. */
  loseNextAnswer(write: Write): void {
    this.lost.add(write)
  }

  private async pass<T>(write: Write, work: () => Promise<T>): Promise<T> {
    const seconds = this.limited.get(write)
    if (seconds !== undefined) throw new DomainErrorException(rateLimited(seconds))
    const result = await work()
    if (this.lost.delete(write)) throw new DomainErrorException(unavailable())
    return result
  }

  readonly news: NewsRepository = {
    list: (query) => this.app.news.list(query),
    search: (query, page) => this.app.news.search(query, page),
    get: (id) => this.app.news.get(id),
    create: (draft, options) => this.pass('create', () => this.app.news.create(draft, options)),
    update: (id, changes, condition) =>
      this.pass('update', () => this.app.news.update(id, changes, condition)),
    remove: (id, condition) => this.pass('remove', () => this.app.news.remove(id, condition)),
    restore: (id) => this.pass('restore', () => this.app.news.restore(id)),
    revisions: (id) => this.app.news.revisions(id),
    restoreRevision: (id, revision) => this.app.news.restoreRevision(id, revision),
    trash: (query) => this.app.news.trash(query),
    changes: (query) => this.app.news.changes(query),
  }

  readonly mailer: Mailer = {
    send: (message) => this.pass('send', () => this.app.mailer.send(message)),
  }

  /** The core's use cases over these ports, bound as the composition roots bind them. */
  useCases(): UseCases {
    const container = new Container()
    container.load(
      new ContainerModule(({ bind }) => {
        bind(PORTS.newsRepository).toConstantValue(this.news)
        bind(PORTS.mailer).toConstantValue(this.mailer)
      }),
      useCasesModule,
    )
    return container.get(USE_CASES)
  }
}
