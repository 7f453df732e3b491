/**
 * The app's core on in-memory adapters, for the screen and model tests: the real use cases
 * (`useCasesFor`) over the journal on a memory store and a recording mailer, each port wrapped
 * once by `faulty()`, so that a test can make any call fail, wait or wait for its answer.
 */
import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { useCasesFor, type UseCases } from '@/application/use-cases'
import type { NewsRepository } from '@/domain/ports/news-repository.port'
import { MemoryMailer } from '@/adapters/memory/memory.mailer'
import { MemoryNewsChanges } from '@/adapters/memory/memory-news.changes'
import { MemoryNewsStore, type MemoryNewsStoreOptions } from '@/adapters/memory/memory-news.store'
import { faulty, type Faulty } from './faulty-port'

export interface MemoryAppOptions extends MemoryNewsStoreOptions {
  /** The clock that dates changes. */
  readonly now?: () => Date
}

export interface MemoryApp {
  readonly useCases: UseCases
  /** The repository the use cases get: the journal, with its faults. */
  readonly news: Faulty<NewsRepository>
  /** The same journal without the faults, to arrange what someone else does meanwhile. */
  readonly journal: JournaledNewsRepository
  /** Where the journal keeps posts and their histories. */
  readonly store: MemoryNewsStore
  readonly mailer: Faulty<MemoryMailer>
  /** A live change feed a test publishes to (it does not watch `store` by itself). */
  readonly changes: MemoryNewsChanges
}

export function createMemoryApp(options: MemoryAppOptions = {}): MemoryApp {
  const store = new MemoryNewsStore(options)
  const journal = new JournaledNewsRepository(store, { now: options.now })
  const news = faulty<NewsRepository>(journal)
  const mailer = faulty(new MemoryMailer())
  return {
    useCases: useCasesFor({ news, mailer }),
    news,
    journal,
    store,
    mailer,
    changes: new MemoryNewsChanges(),
  }
}
