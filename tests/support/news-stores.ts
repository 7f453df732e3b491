/** Where the news port contracts run: in memory, and on each SQL engine. */
import { MemoryNewsStore } from '@/adapters/memory/memory-news.store'
import { openDatabase, type SqlDatabase } from '@/adapters/sql/database'
import { SqlNewsStore, type SqlNewsStoreOptions } from '@/adapters/sql/news/store'
import type { LoggedNewsStore } from '@/application/ports/change-log.port'
import type { TestStoreKind } from './test-databases'

export interface OpenedNewsStore {
  readonly store: LoggedNewsStore
  /** Absent for the in-memory store. */
  readonly sql?: { readonly database: SqlDatabase; readonly url: string }
}

/** Where a contract runs: memory, or one SQL engine. */
export interface NewsStoreKind {
  readonly name: string
  readonly engine: 'memory' | 'sqlite' | 'postgres'
  /** Whether a second openDatabase(url) sees the same data (not so for :memory:). */
  readonly persistent: boolean
  /** Opens a fresh store; `cleanups` receives what closes and removes it, in opening order. */
  open(
    cleanups: Array<() => Promise<void>>,
    options?: SqlNewsStoreOptions,
  ): Promise<OpenedNewsStore>
}

export const memoryStore: NewsStoreKind = {
  name: 'memory',
  engine: 'memory',
  persistent: false,
  async open() {
    return { store: new MemoryNewsStore() }
  },
}

/** A SQL engine's test databases as a NewsStoreKind. */
export function sqlStore(kind: TestStoreKind): NewsStoreKind {
  return {
    name: kind.name,
    engine: kind.name === 'PostgreSQL' ? 'postgres' : 'sqlite',
    persistent: kind.persistent,
    async open(cleanups, options) {
      const place = await kind.create()
      cleanups.push(() => place.dispose())
      const database = await openDatabase(place.url)
      cleanups.push(() => database.close())
      return { store: new SqlNewsStore(database, options), sql: { database, url: place.url } }
    },
  }
}
