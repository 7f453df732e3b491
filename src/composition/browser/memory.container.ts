/**
 * A composition root for UI tests: the same use cases on in-memory adapters, which a test can
 * seed, make fail (`faults`) or hold, with no network, and a live change feed it drives.
 */
import { useCasesFor, type UseCases } from '@/application/use-cases'
import { MemoryMailer } from '@/adapters/memory/memory.mailer'
import {
  MemoryNewsRepository,
  type MemoryNewsOptions,
} from '@/adapters/memory/memory-news.repository'
import type { MemoryNewsStore } from '@/adapters/memory/memory-news.store'
import { MemoryNewsChanges } from '@/adapters/memory/memory-news.changes'

export interface MemoryApp {
  readonly useCases: UseCases
  /** The repository the use cases get: the journal over `store`, with `faults`. */
  readonly news: MemoryNewsRepository
  /** Where `news` keeps posts and their histories, to arrange or inspect without faults. */
  readonly store: MemoryNewsStore
  readonly mailer: MemoryMailer
  /** A live change feed a test publishes to (it does not watch `store` by itself). */
  readonly changes: MemoryNewsChanges
}

export function createMemoryApp(options: MemoryNewsOptions = {}): MemoryApp {
  const news = new MemoryNewsRepository(options)
  const mailer = new MemoryMailer()
  return {
    useCases: useCasesFor({ news, mailer }),
    news,
    store: news.store,
    mailer,
    changes: new MemoryNewsChanges(),
  }
}
