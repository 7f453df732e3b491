/**
 * `npm run outbox [-- --limit N]`: prints the contact messages held by the built-in outbox,
 * newest first. It opens DATABASE_URL as the server does; these messages are never served
 * over HTTP, because they hold visitors' e-mail addresses.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { formatOutbox } from '@/adapters/outbox/outbox-report'
import { DEFAULT_OUTBOX_LIST_SIZE, SqlOutboxMailer } from '@/adapters/outbox/sql-outbox.mailer'
import { openDatabase } from '@/adapters/sql/database'
import { ConfigError, readConfig } from '@/server/config'

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { limit: { type: 'string' } } })
  const limit = values.limit === undefined ? DEFAULT_OUTBOX_LIST_SIZE : Number(values.limit)
  if (!Number.isInteger(limit) || limit < 1) {
    process.stderr.write('--limit must be a whole number of at least 1\n')
    return 2
  }

  const target = readConfig(process.env).database
  // Reading the outbox should not create an empty database as a side effect.
  if (
    target.engine === 'sqlite' &&
    target.path !== ':memory:' &&
    !existsSync(resolve(target.path))
  ) {
    process.stdout.write(`The outbox is empty: there is no database at ${target.path} yet.\n`)
    return 0
  }

  const database = await openDatabase(target)
  try {
    const outbox = new SqlOutboxMailer(database)
    const [messages, total] = await Promise.all([outbox.list(limit), outbox.count()])
    process.stdout.write(formatOutbox(messages, total))
    return 0
  } finally {
    await database.close()
  }
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    if (error instanceof ConfigError) {
      process.stderr.write(`outbox: ${error.problems.join('; ')}\n`)
      process.exitCode = 1
      return
    }
    const cause =
      error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : ''
    process.stderr.write(
      `outbox: ${error instanceof Error ? error.message : String(error)}${cause}\n`,
    )
    process.exitCode = 1
  },
)
