import type { LogEvent } from 'kysely'

/** What a statement is, by its first word: few enough values to label a metric with. */
export type StatementKind = 'select' | 'insert' | 'update' | 'delete' | 'transaction' | 'other'

/** One statement the database ran (or refused), and how long it took. */
export interface StatementTiming {
  readonly kind: StatementKind
  readonly seconds: number
  readonly failed: boolean
}

/**
 * Told of every statement, on either engine; the server's metrics listen (the composition root
 * connects them), so this adapter knows no metrics library. It must not throw, nor take long.
 */
export type StatementObserver = (timing: StatementTiming) => void

const KINDS: Readonly<Record<string, StatementKind>> = {
  select: 'select',
  insert: 'insert',
  update: 'update',
  delete: 'delete',
  begin: 'transaction',
  commit: 'transaction',
  rollback: 'transaction',
  savepoint: 'transaction',
  release: 'transaction',
}

/** The kind of a SQL text, by its first word; a `with` query and DDL are `other`. */
export function statementKind(text: string): StatementKind {
  const word = /^\s*\(?\s*([a-z]+)/i.exec(text)?.[1]?.toLowerCase() ?? ''
  return KINDS[word] ?? 'other'
}

/**
 * Kysely's `log` option, which it calls with every statement's duration on both dialects
 * (transactions and migrations included): the one place every statement through Kysely passes.
 */
export function kyselyLogOf(observer: StatementObserver): (event: LogEvent) => void {
  return (event) =>
    observer({
      kind: statementKind(event.query.sql),
      seconds: event.queryDurationMillis / 1000,
      failed: event.level === 'error',
    })
}
