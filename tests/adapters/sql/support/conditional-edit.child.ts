/**
 * One process of the SQLite concurrency test: opens the database file it is given, says
 * `ready`, waits for the go file, then edits the post on condition that it is still revision 1,
 * and prints the outcome as JSON. Its clock sleeps inside the transaction, between reading the
 * post and writing it, so that two such processes overlap for certain.
 */
import { existsSync } from 'node:fs'
import { JournaledNewsRepository } from '@/application/journaled-news.repository'
import { openDatabase } from '@/adapters/sql/database'
import { SqlNewsStore } from '@/adapters/sql/news/store'
import { toDomainError } from '@/domain/domain-error'

const [url, id, title, goFile, holdMs] = process.argv.slice(2)
if (url === undefined || id === undefined || title === undefined || goFile === undefined) {
  throw new Error('usage: conditional-edit.child.ts URL ID TITLE GO_FILE [HOLD_MS]')
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

const database = await openDatabase(url)
const failures: string[] = []
const journal = new JournaledNewsRepository(
  new SqlNewsStore(database, { onError: (error) => failures.push(String(error)) }),
  {
    now: () => {
      sleepSync(Number(holdMs ?? 300))
      return new Date()
    },
  },
)
console.log('ready')
while (!existsSync(goFile)) await new Promise((resolve) => setTimeout(resolve, 2))
try {
  const item = await journal.update(id, { title }, { ifRevision: [1] })
  console.log(JSON.stringify({ ok: true, revision: item.revision, title: item.title }))
} catch (error) {
  console.log(JSON.stringify({ ok: false, code: toDomainError(error).code, failures }))
} finally {
  await database.close()
}
