import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import SQLite from 'better-sqlite3'
import { REPO_ROOT } from './paths'

const run = promisify(execFile)

/**
 * Runs `npm run news -- ARGS` as the operator would, over the worker's database (the compiled
 * command global setup built); its output, or an error with what it printed.
 */
export async function operator(databaseUrl: string, ...args: string[]): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, ['dist-node/news.js', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    })
    return stdout
  } catch (thrown) {
    const failed = thrown as { stdout?: string; stderr?: string }
    throw new Error(`news ${args.join(' ')} failed: ${failed.stderr ?? ''}${failed.stdout ?? ''}`, {
      cause: thrown,
    })
  }
}

/**
 * Lifts every block and protection a test left in the worker's database, so that the next
 * test's visitor and posts start unmoderated (each test has an address of its own, but the
 * site is emptied through the API, which a protection would refuse).
 */
export function liftModeration(databasePath: string): void {
  const db = new SQLite(databasePath)
  try {
    db.pragma('busy_timeout = 5000')
    db.transaction(() => {
      db.exec('delete from news_protection')
      db.exec('delete from client_block')
    }).immediate()
  } finally {
    db.close()
  }
}
