/**
 * `npm run news -- <command>`: the operator's tools for posts, over DATABASE_URL's database
 * and through the same composition and use cases as the server (no SQL here).
 *
 *   restore --since <ISO time>   undo vandalism: every post deleted since then comes back from
 *                                the trash, and every post edited since then returns to the
 *                                version it had then, each as new revisions
 *   history <id>                 a post's revisions, newest first (trashed posts too)
 *   who, rollback, block, unblock, blocks, protect, unprotect, purge, redact, log
 *                                moderation (moderation-commands.ts)
 *   export, import, copy, backup moving the site between databases, and backing up SQLite
 *                                (site-commands.ts, docs/export-format.md)
 *
 * Exits 0 when done, 1 with a one-line message for bad arguments, an unknown post or a
 * database that cannot be opened.
 */
import type { UndoStep } from '@/application/undo-changes.use-case'
import { isEditor } from '@/domain/editor'
import type { DomainError } from '@/domain/domain-error'
import type { NewsRevision } from '@/domain/news-revision.entity'
import { MAX_HISTORY_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import type { ComposedOperator } from '@/composition/server/operator.composition'
import { parseCommandLine, readOperatorConfig, UsageError, type CommandIo } from './command-line'
import {
  checkModerationArgs,
  MODERATION_OPTIONS,
  operatorName,
  type ModerationArgs,
} from './moderation-commands'
import { countSteps, formatStep, quoted } from './undo-report'

const USAGE = `Usage: npm run news -- <command>

Commands:
  restore --since <ISO time> [--until <ISO time>] [--editor E] [--dry-run]
                              put back every post deleted and every edit made since that time
                              (and before --until; by editor E), as new revisions, and print
                              each step (for example --since 2026-05-01T12:00:00Z); a post also
                              changed after --until is left alone; --dry-run changes nothing
  history <id>                print a post's revisions with their editors, newest first
  who ADDRESS                 print the pseudonym the site gives a client address
  rollback --editor E [--since <ISO time>] [--dry-run] [--force]
                              undo everything editor E did: their edits go back to the last
                              version by someone else, their new posts to the trash, the posts
                              they deleted come back; a post someone else changed after them is
                              left alone unless --force
  block E|ADDRESS|CIDR [--for 24h] [--reason TEXT]
                              refuse that client's writes (an address is blocked by its pseudonym)
  unblock E|ADDRESS|CIDR|ID   lift its blocks;  blocks  lists the blocks that hold
  protect ID [--reason TEXT]  only the operator may change the post;  unprotect ID  ends it
  purge ID [--reason TEXT]    remove a post and its history for good, now (illegal content)
  redact ID REVISION [--reason TEXT]
                              erase one old revision's title, body and author
  log                         print every operator action: who, what, when and why
  export [FILE]               write the whole site (posts, trash, histories, the live stream's
                              log) to FILE, or to standard output, as JSON Lines
                              (docs/export-format.md); --with-outbox adds the contact messages
  import FILE                 load such a file into an empty database, then check its digests
  copy --to URL               copy the site, contact messages included, into another empty
                              database (postgres://… or a SQLite path), then compare the row
                              counts and sha256 digests of both sides
  backup FILE                 an online backup of the SQLite database into FILE (its folder is
                              created); on PostgreSQL it says to use pg_dump and exits 1
  help                        print this help

It uses the database DATABASE_URL names, as the server does (default sqlite:./data/newswire.db).
Stop the servers' writes before export or copy (docs/operations.md, Moving to PostgreSQL).
`

// A date, or a date and time with an explicit zone: a time without one would depend on the
// machine's time zone, which is the wrong thing to guess when undoing changes.
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/i

function parseSince(text: string, option = '--since'): Date {
  const match = ISO_TIME.exec(text.trim())
  const [, year, month, day, hours = '0', minutes = '0', seconds = '0', zoneH = '0', zoneM = '0'] =
    match ?? []
  const time = Date.parse(text.trim())
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)))
  const valid =
    match !== null &&
    !Number.isNaN(time) &&
    calendar.getUTCMonth() === Number(month) - 1 &&
    calendar.getUTCDate() === Number(day) &&
    Number(hours) < 24 &&
    Number(minutes) < 60 &&
    Number(seconds) < 60 &&
    Number(zoneH) < 24 &&
    Number(zoneM) < 60
  if (!valid) {
    throw new UsageError(
      `${option} must be an ISO 8601 time with a zone, such as 2026-05-01T12:00:00Z, got ${JSON.stringify(text)}`,
    )
  }
  return new Date(time)
}

function describeFailure(error: DomainError, id?: string): string {
  switch (error.code) {
    case 'NotFound':
      return `no post has the id ${quoted(id ?? '')} (or it was purged from the trash)`
    case 'Unavailable':
      return 'the database did not answer; see that DATABASE_URL is right and the database is up'
    default:
      return `the change was refused (${error.code}); run the command again`
  }
}

function summary(steps: readonly UndoStep[], command: RestoreCommand): string {
  const when = command.since.toISOString()
  if (steps.length === 0) return `Nothing to undo: no post was deleted or edited since ${when}.`
  return `${command.dryRun ? 'Would undo' : 'Undid'} the changes since ${when} to ${countSteps(steps)}, each as a new revision.`
}

function formatRevision(revision: NewsRevision): string {
  const from =
    revision.restoredFrom === undefined ? '' : `  (from revision ${revision.restoredFrom})`
  return (
    `${String(revision.revision).padStart(8)}  ${revision.at}  ${revision.action.padEnd(7)}  ` +
    `${revision.editor.padEnd(10)}  ` +
    (revision.hidden === true
      ? 'hidden by the operator'
      : `${quoted(revision.title)} by ${quoted(revision.author)}${from}`)
  )
}

async function restoreSince(
  operator: ComposedOperator,
  command: RestoreCommand,
  { stdout }: CommandIo,
): Promise<void> {
  const result = await operator.undoChangesSince.execute(command)
  if (!result.ok) throw new UsageError(describeFailure(result.error))
  for (const step of result.value) stdout.write(`${formatStep(step, command.dryRun)}\n`)
  if (!command.dryRun) {
    const target = `since ${command.since.toISOString()}${command.editor === undefined ? '' : ` by ${command.editor}`}`
    const recorded = await operator.tools.recordUndo('restore', target, result.value)
    if (!recorded.ok) throw new UsageError(describeFailure(recorded.error))
  }
  stdout.write(`${summary(result.value, command)}\n`)
}

async function history(
  operator: ComposedOperator,
  id: string,
  { stdout }: CommandIo,
): Promise<void> {
  // Page by page, printing as it goes: a long history is never held whole.
  let cursor: string | undefined
  let first = true
  do {
    const query = { limit: MAX_HISTORY_PAGE_SIZE, cursor }
    const result = await operator.useCases.listRevisions.execute(id, query)
    if (!result.ok) throw new UsageError(describeFailure(result.error, id))
    const { items, next } = result.value
    if (first) {
      const [latest] = items
      const state = latest?.action === 'delete' ? 'in the trash' : 'live'
      // Revisions are numbered 1, 2, … and never removed alone: the newest one counts them.
      stdout.write(
        `Post ${id} (${state}): ${latest?.revision ?? 0} revision(s), newest first.\n` +
          `revision  ${'time'.padEnd(24)}  ${'action'.padEnd(7)}  ${'editor'.padEnd(10)}  title by author\n`,
      )
      first = false
    }
    for (const revision of items) stdout.write(`${formatRevision(revision)}\n`)
    cursor = next
  } while (cursor !== undefined)
}

interface RestoreCommand {
  readonly name: 'restore'
  readonly since: Date
  readonly until?: Date
  readonly editor?: string
  readonly dryRun: boolean
}

type Command =
  | { readonly name: 'help' }
  | RestoreCommand
  | { readonly name: 'moderation'; readonly args: ModerationArgs }
  | { readonly name: 'history'; readonly id: string }
  | { readonly name: 'export'; readonly file?: string; readonly withOutbox: boolean }
  | { readonly name: 'import' | 'backup'; readonly file: string }
  | { readonly name: 'copy'; readonly to: string }

/** The options each command takes; any other given is a usage error. */
const COMMAND_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  restore: ['since', 'until', 'editor', 'dry-run'],
  ...MODERATION_OPTIONS,
  history: [],
  export: ['with-outbox'],
  import: [],
  backup: [],
  copy: ['to'],
}

function parseCommand(args: readonly string[]): Command {
  const { values, positionals } = parseCommandLine(args, {
    since: { type: 'string' },
    until: { type: 'string' },
    editor: { type: 'string' },
    'dry-run': { type: 'boolean' },
    force: { type: 'boolean' },
    for: { type: 'string' },
    reason: { type: 'string' },
    'with-outbox': { type: 'boolean' },
    to: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  })
  const [name, ...rest] = positionals
  if (values.help === true || name === 'help') return { name: 'help' }
  if (name === undefined) throw new UsageError(`name a command: ${COMMAND_NAMES}`)
  const allowed = COMMAND_OPTIONS[name]
  if (allowed === undefined)
    throw new UsageError(`unknown command ${quoted(name)}: use ${COMMAND_NAMES}`)
  const stray = Object.keys(values).find((option) => option !== 'help' && !allowed.includes(option))
  if (stray !== undefined) throw new UsageError(`${name} takes no --${stray}`)
  const [first, ...extra] = rest
  if (MODERATION_OPTIONS[name] !== undefined) {
    const args: ModerationArgs = {
      name,
      positionals: rest,
      editor: values.editor,
      since: values.since === undefined ? undefined : parseSince(values.since),
      force: values.force === true,
      dryRun: values['dry-run'] === true,
      for: values.for,
      reason: values.reason,
    }
    checkModerationArgs(args)
    return { name: 'moderation', args }
  }
  switch (name) {
    case 'restore': {
      if (rest.length > 0) throw new UsageError(`restore takes no ${quoted(rest[0] ?? '')}`)
      if (values.since === undefined) throw new UsageError('restore needs --since <ISO time>')
      if (values.editor !== undefined && !isEditor(values.editor)) {
        throw new UsageError(`${quoted(values.editor)} is not an editor`)
      }
      return {
        name,
        since: parseSince(values.since),
        ...(values.until === undefined ? {} : { until: parseSince(values.until, '--until') }),
        ...(values.editor === undefined ? {} : { editor: values.editor }),
        dryRun: values['dry-run'] === true,
      }
    }
    case 'export':
      if (extra.length > 0) throw new UsageError('export takes at most one file')
      return { name, file: first, withOutbox: values['with-outbox'] === true }
    case 'copy':
      if (rest.length > 0) throw new UsageError(`copy takes no ${quoted(rest[0] ?? '')}`)
      if (values.to === undefined) throw new UsageError('copy needs --to <database URL or path>')
      return { name, to: values.to }
    default:
      if (first === undefined || extra.length > 0) {
        throw new UsageError(
          name === 'history' ? 'history needs one post id' : `${name} needs one file`,
        )
      }
      return name === 'history'
        ? { name, id: first }
        : { name: name as 'import' | 'backup', file: first }
  }
}

const COMMAND_NAMES = Object.keys(COMMAND_OPTIONS).join(', ')

/** `npm run news -- ARGS`; its exit status. */
export async function news(args: readonly string[], io: CommandIo): Promise<number> {
  const command = parseCommand(args)
  if (command.name === 'help') {
    io.stdout.write(USAGE)
    return 0
  }

  if (command.name !== 'restore' && command.name !== 'history' && command.name !== 'moderation') {
    return siteCommand(command, io)
  }
  const config = await readOperatorConfig(io.env)
  const { composeOperator } = await import('@/composition/server/operator.composition')
  const operator = await composeOperator(config, operatorName())
  try {
    if (command.name === 'moderation') {
      const { runModeration } = await import('./moderation-commands')
      return await runModeration(operator, command.args, io)
    }
    if (command.name === 'restore') await restoreSince(operator, command, io)
    else await history(operator, command.id, io)
    return 0
  } finally {
    await operator.close()
  }
}

async function siteCommand(
  command: Extract<Command, { name: 'export' | 'import' | 'copy' | 'backup' }>,
  io: CommandIo,
): Promise<number> {
  // An import fills a database that may not exist yet; the others read one that must.
  const config = await readOperatorConfig(io.env, { creates: command.name === 'import' })
  const site = await import('./site-commands')
  switch (command.name) {
    case 'export':
      return site.exportSite(config, io, command.file, command.withOutbox)
    case 'import':
      return site.importSite(config, io, command.file)
    case 'copy':
      return site.copyToDatabase(config, io, command.to)
    case 'backup':
      return site.backup(config, io, command.file)
  }
}
