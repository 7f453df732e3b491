/**
 * `npm run outbox -- [command]`: the contact messages held by the built-in outbox. They are
 * never served over HTTP, because they hold visitors' e-mail addresses, and can be deleted once
 * handled. It opens DATABASE_URL as the server does. Exits 0 when done, 1 with a one-line
 * message for bad arguments or a database that cannot be opened, like `npm run news`.
 */
import { formatOutbox } from '@/adapters/outbox/outbox-report'
import {
  DEFAULT_OUTBOX_LIST_SIZE,
  MAX_OUTBOX_LIST_SIZE,
  SqlOutboxMailer,
} from '@/adapters/outbox/sql-outbox.mailer'
import {
  parseCommandLine,
  readOperatorConfig,
  runProgram,
  UsageError,
  type CommandIo,
} from './cli/command-line'

const USAGE = `Usage: npm run outbox -- [command]

Commands:
  list [--limit N]       print the newest messages, newest first (the default command);
                         --limit: how many, from 1 to ${MAX_OUTBOX_LIST_SIZE} (default ${DEFAULT_OUTBOX_LIST_SIZE})
  delete ID [ID ...]     delete those messages once handled (their numbers, as list prints #ID)
  delete --through ID    delete every message up to and including that one
  help                   print this help

It uses the database DATABASE_URL names, as the server does (default sqlite:./data/newswire.db).
`

type Command =
  | { readonly name: 'help' }
  | { readonly name: 'list'; readonly limit: number }
  | { readonly name: 'delete'; readonly ids: readonly number[] }
  | { readonly name: 'delete'; readonly through: number }

function wholeNumber(text: string, what: string, max = Number.MAX_SAFE_INTEGER): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new UsageError(
      `${what} must be a whole number from 1 to ${max}, got ${JSON.stringify(text)}`,
    )
  }
  return value
}

function parseCommand(args: readonly string[]): Command {
  const { values, positionals } = parseCommandLine(args, {
    limit: { type: 'string' },
    through: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  })
  const [name = 'list', ...rest] = positionals
  if (values.help === true || name === 'help') return { name: 'help' }
  if (name === 'list') {
    if (rest.length > 0 || values.through !== undefined)
      throw new UsageError('list takes only --limit')
    const limit =
      values.limit === undefined
        ? DEFAULT_OUTBOX_LIST_SIZE
        : wholeNumber(values.limit, '--limit', MAX_OUTBOX_LIST_SIZE)
    return { name, limit }
  }
  if (name === 'delete') {
    if (values.limit !== undefined) throw new UsageError('delete takes no --limit')
    if (values.through !== undefined) {
      if (rest.length > 0) throw new UsageError('delete takes ids or --through, not both')
      return { name, through: wholeNumber(values.through, '--through') }
    }
    if (rest.length === 0) throw new UsageError('delete needs message ids, or --through ID')
    return { name, ids: rest.map((id) => wholeNumber(id.replace(/^#/, ''), 'a message id')) }
  }
  throw new UsageError(`unknown command ${JSON.stringify(name)}: use list or delete`)
}

async function main(args: readonly string[], { env, stdout }: CommandIo): Promise<number> {
  const command = parseCommand(args)
  if (command.name === 'help') {
    stdout.write(USAGE)
    return 0
  }
  const { database: target } = await readOperatorConfig(env)
  const { openDatabase } = await import('@/adapters/sql/database')
  const database = await openDatabase(target)
  try {
    const outbox = new SqlOutboxMailer(database)
    if (command.name === 'list') {
      const [messages, total] = await Promise.all([outbox.list(command.limit), outbox.count()])
      stdout.write(formatOutbox(messages, total))
    } else {
      const deleted = await outbox.delete(command)
      stdout.write(`Deleted ${deleted} ${deleted === 1 ? 'message' : 'messages'}.\n`)
    }
    return 0
  } finally {
    await database.close()
  }
}

runProgram('outbox', main)
