import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type { CompiledQuery } from 'kysely'
import type { StatementObserver } from '@/adapters/sql/statement-timing'
import { unavailable } from '@/domain/domain-error'

/**
 * Reads the rows of compiled queries, where is the reader's choice: each query's rows in turn,
 * until `enough` rows are read in all (the queries after that are not run).
 */
export interface QueryReader {
  allUntil<Row>(queries: readonly CompiledQuery<Row>[], enough: number): Promise<Row[][]>
}

/** A QueryReader that runs each query through `run`, one after another. */
export function readerOf(run: (query: CompiledQuery) => Promise<readonly unknown[]>): QueryReader {
  return {
    async allUntil<Row>(queries: readonly CompiledQuery<Row>[], enough: number) {
      const results: Row[][] = []
      let read = 0
      for (const query of queries) {
        if (read >= enough) break
        const rows = (await run(query)) as Row[]
        results.push(rows)
        read += rows.length
      }
      return results
    },
  }
}

/** Searches waiting for the thread at most, unless told; past them a search answers 503 at once. */
const MAX_WAITING = 64

/** Prepared statements the thread keeps; a search has a handful of shapes, so this never fills. */
const MAX_STATEMENTS = 64

// Plain JavaScript run by the worker as it is (eval), so it loads under tsx, vitest or plain
// node alike; better-sqlite3 comes by absolute path, as a thread's require resolves from the
// working directory.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const connection = new Database(workerData.path, { readonly: true, fileMustExist: true })
const statements = new Map()
function prepared(sql) {
  let statement = statements.get(sql)
  if (statement === undefined) {
    if (statements.size >= workerData.maxStatements) statements.clear()
    statement = connection.prepare(sql)
    statements.set(sql, statement)
  }
  return statement
}
parentPort.on('message', ({ id, queries, enough }) => {
  try {
    const results = []
    const seconds = []
    let read = 0
    for (const { sql, parameters } of queries) {
      if (read >= enough) break
      const started = performance.now()
      const rows = prepared(sql).all(...parameters)
      seconds.push((performance.now() - started) / 1000)
      results.push(rows)
      read += rows.length
    }
    parentPort.postMessage({ id, results, seconds })
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) })
  }
})
`

interface Pending {
  readonly resolve: (results: unknown[][]) => void
  readonly reject: (error: unknown) => void
}

type Answer =
  | { readonly id: number; readonly results: unknown[][]; readonly seconds: number[] }
  | { readonly id: number; readonly error: string }

/**
 * Reads a SQLite file's search queries on a thread of its own, over a read-only connection.
 * better-sqlite3 runs each statement to its end on the thread that calls it, and the costliest
 * searches read the index for tens of milliseconds: on the server's thread, every other request
 * waited for them (four clients searching in a loop raised a visitor's read p50 to 435 ms). Here
 * the event loop goes on serving while a search runs. The file is in WAL mode, so each read sees
 * every commit made before it, by any connection, and never waits for a writer.
 *
 * One thread reads one search at a time, so searches together use at most one core; searches
 * that find it busy wait in order, up to `maxWaiting`, and past that are refused (Unavailable)
 * rather than queued without end. The thread starts with the first search and starts again
 * after a failure.
 */
export class SqliteSearchThread implements QueryReader {
  private worker: Worker | undefined
  private readonly pending = new Map<number, Pending>()
  private nextId = 0
  private closed = false

  constructor(
    private readonly path: string,
    private readonly maxWaiting = MAX_WAITING,
    /** Told of each statement the thread ran, and its time there: it bypasses Kysely's log. */
    private readonly onStatement?: StatementObserver,
  ) {}

  /**
   * Reads each query's rows in turn on the thread, until `enough` rows are read: one trip to the
   * thread for a search's tiers, however many it reads.
   */
  allUntil<Row>(queries: readonly CompiledQuery<Row>[], enough: number): Promise<Row[][]> {
    if (this.closed || this.pending.size >= this.maxWaiting) {
      return Promise.reject(unavailable())
    }
    const worker = this.worker ?? this.start()
    const id = (this.nextId += 1)
    return new Promise<Row[][]>((resolve, reject) => {
      this.pending.set(id, { resolve: (results) => resolve(results as Row[][]), reject })
      worker.postMessage({
        id,
        queries: queries.map(({ sql, parameters }) => ({ sql, parameters })),
        enough,
      })
    })
  }

  /** Ends the thread; searches still waiting are refused. */
  async close(): Promise<void> {
    this.closed = true
    const worker = this.worker
    this.worker = undefined
    this.failAll(new Error('the search thread is closed'))
    await worker?.terminate()
  }

  private start(): Worker {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3')
    const worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { driver, path: this.path, maxStatements: MAX_STATEMENTS },
    })
    // The server's sockets keep the process alive; a search thread alone does not.
    worker.unref()
    worker.on('message', (answer: Answer) => {
      const waiting = this.pending.get(answer.id)
      if (waiting === undefined) return
      this.pending.delete(answer.id)
      if ('error' in answer) {
        // The thread reads searches only: a failed one is a select too.
        this.onStatement?.({ kind: 'select', seconds: 0, failed: true })
        waiting.reject(new Error(answer.error))
        return
      }
      // Each statement's time on the thread, as Kysely's log tells the others'.
      for (const seconds of answer.seconds) {
        this.onStatement?.({ kind: 'select', seconds, failed: false })
      }
      waiting.resolve(answer.results)
    })
    const lost = (error: unknown) => {
      if (this.worker === worker) this.worker = undefined
      this.failAll(error)
    }
    worker.on('error', lost)
    worker.on('exit', (code) => lost(new Error(`the search thread exited with ${code}`)))
    this.worker = worker
    return worker
  }

  private failAll(error: unknown): void {
    for (const waiting of this.pending.values()) waiting.reject(error)
    this.pending.clear()
  }
}
