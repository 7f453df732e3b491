import { isIP } from 'node:net'
import { userInfo } from 'node:os'
import type { ComposedOperator } from '@/composition/server/operator.composition'
import type { DomainError } from '@/domain/domain-error'
import { isEditor, isPseudonym } from '@/domain/editor'
import type { ClientBlock } from '@/domain/moderation.entity'
import type { Result } from '@/domain/result'
import { parseRange } from '@/adapters/sql/moderation.store'
import { UsageError, type CommandIo } from './command-line'
import { countSteps, formatStep, quoted } from './undo-report'

/**
 * `npm run news -- who | rollback | block | unblock | blocks | protect | unprotect | purge |
 * redact | log`: the operator's moderation tools (docs/operations.md, "Moderating").
 */

/** The options and positionals of one moderation command, as the command line gave them. */
export interface ModerationArgs {
  readonly name: string
  readonly positionals: readonly string[]
  readonly editor?: string
  readonly since?: Date
  readonly force: boolean
  readonly dryRun: boolean
  readonly for?: string
  readonly reason?: string
}

/** The options each moderation command takes. */
export const MODERATION_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  who: [],
  rollback: ['editor', 'since', 'force', 'dry-run'],
  block: ['for', 'reason'],
  unblock: [],
  blocks: [],
  protect: ['reason'],
  unprotect: [],
  purge: ['reason'],
  redact: ['reason'],
  log: [],
}

/** How many positionals each takes. */
const ARITY: Readonly<Record<string, number>> = {
  who: 1,
  rollback: 0,
  block: 1,
  unblock: 1,
  blocks: 0,
  protect: 1,
  unprotect: 1,
  purge: 1,
  redact: 2,
  log: 0,
}

const USAGE_OF: Readonly<Record<string, string>> = {
  who: 'who ADDRESS',
  rollback: 'rollback --editor E [--since TIME] [--dry-run] [--force]',
  block: 'block E|ADDRESS|CIDR [--for 24h] [--reason TEXT]',
  unblock: 'unblock E|CIDR|BLOCK-ID',
  blocks: 'blocks',
  protect: 'protect ID [--reason TEXT]',
  unprotect: 'unprotect ID',
  purge: 'purge ID [--reason TEXT]',
  redact: 'redact ID REVISION [--reason TEXT]',
  log: 'log',
}

/** The account that runs the command, for the operator log. */
export function operatorName(): string {
  try {
    return userInfo().username || 'operator'
  } catch {
    return 'operator'
  }
}

/** Checks a moderation command's arguments before anything is opened. */
export function checkModerationArgs(args: ModerationArgs): void {
  if (args.positionals.length !== ARITY[args.name]) {
    throw new UsageError(`usage: npm run news -- ${USAGE_OF[args.name] ?? args.name}`)
  }
  if (args.name === 'rollback') {
    if (args.editor === undefined) throw new UsageError('rollback needs --editor E')
    if (!isEditor(args.editor)) throw new UsageError(`${quoted(args.editor)} is not an editor`)
  }
  if (args.for !== undefined) durationMs(args.for)
  if (args.name === 'redact' && !/^[1-9]\d{0,9}$/.test(args.positionals[1] ?? '')) {
    throw new UsageError('redact needs a revision number')
  }
}

/** `24h`, `30m`, `7d`, `90s` in milliseconds. */
export function durationMs(text: string): number {
  const match = /^(\d{1,6})([smhd])$/.exec(text.trim())
  if (match === null) throw new UsageError(`--for must be like 30m, 24h or 7d, got ${quoted(text)}`)
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[
    match[2] as 's' | 'm' | 'h' | 'd'
  ]
  return Number(match[1]) * unit
}

function valueOf<T>(result: Result<T>, notFound: string): T {
  if (result.ok) return result.value
  throw new UsageError(describe(result.error, notFound))
}

function describe(error: DomainError, notFound: string): string {
  if (error.code === 'NotFound') return notFound
  if (error.code === 'Unavailable') {
    return 'the database did not answer; see that DATABASE_URL is right and the database is up'
  }
  return `the change was refused (${error.code}); run the command again`
}

function formatBlock(block: ClientBlock): string {
  return (
    `${block.id}  ${block.kind.padEnd(6)}  ${block.target.padEnd(18)}  since ${block.createdAt}  ` +
    `until ${block.expiresAt ?? 'lifted'}${block.reason === '' ? '' : `  ${quoted(block.reason)}`}`
  )
}

/** Runs one moderation command over the operator's composition; its exit status. */
export async function runModeration(
  operator: ComposedOperator,
  args: ModerationArgs,
  { stdout }: CommandIo,
): Promise<number> {
  const out = (line: string) => stdout.write(`${line}\n`)
  const { tools } = operator
  const [first = '', second = ''] = args.positionals
  const missingPost = `no post has the id ${quoted(first)} (or it was purged)`
  switch (args.name) {
    case 'who': {
      if (isIP(first) === 0) throw new UsageError(`${quoted(first)} is not an IP address`)
      out(operator.pseudonymOf(first))
      return 0
    }
    case 'rollback': {
      const editor = args.editor ?? ''
      const steps = valueOf(
        await operator.rollbackEditor.execute({
          editor,
          since: args.since,
          force: args.force,
          dryRun: args.dryRun,
        }),
        'nothing to roll back',
      )
      for (const step of steps) out(formatStep(step, args.dryRun))
      if (!args.dryRun) valueOf(await tools.recordUndo('rollback', editor, steps), '')
      out(
        steps.length === 0
          ? `Nothing to roll back: ${editor} changed no post${args.since === undefined ? '' : ` since ${args.since.toISOString()}`}.`
          : `${args.dryRun ? 'Would roll back' : 'Rolled back'} ${editor} on ${countSteps(steps)}.`,
      )
      return 0
    }
    case 'block': {
      const target = blockTarget(first, operator)
      const block = valueOf(
        await tools.block(target, {
          forMs: args.for === undefined ? undefined : durationMs(args.for),
          reason: args.reason,
        }),
        '',
      )
      out(
        `Blocked ${block.kind} ${block.target} until ${block.expiresAt ?? 'lifted'} (block ${block.id}).`,
      )
      return 0
    }
    case 'unblock': {
      const target = isIP(first) === 0 ? first : operator.pseudonymOf(first)
      const lifted = valueOf(await tools.unblock(target), `no block names ${quoted(first)}`)
      out(`Lifted ${lifted} block(s) of ${target}.`)
      return 0
    }
    case 'blocks': {
      const blocks = valueOf(await tools.blocks(), '')
      if (blocks.length === 0) out('No block holds.')
      for (const block of blocks) out(formatBlock(block))
      return 0
    }
    case 'protect':
      valueOf(await tools.protect(first, args.reason), missingPost)
      out(`Protected ${first}: only the operator may change it.`)
      return 0
    case 'unprotect':
      valueOf(await tools.unprotect(first), `post ${quoted(first)} is not protected`)
      out(`${first} is no longer protected.`)
      return 0
    case 'purge':
      valueOf(await tools.purge(first, args.reason), missingPost)
      out(`Purged ${first}: the post and its history are gone for good.`)
      return 0
    case 'redact': {
      const outcome = valueOf(await tools.redact(first, Number(second), args.reason), missingPost)
      if (outcome === 'missing')
        throw new UsageError(`post ${quoted(first)} has no revision ${second}`)
      if (outcome === 'newest') {
        throw new UsageError(
          `revision ${second} is the post's newest version: edit it, roll it back or purge the post`,
        )
      }
      out(`Hid the title, body and author of revision ${second} of ${first}.`)
      return 0
    }
    default: {
      const actions = valueOf(await tools.log(), '')
      if (actions.length === 0) out('The operator has done nothing yet.')
      for (const action of actions) {
        out(
          `${action.at}  ${action.operator}  ${action.action.padEnd(9)}  ${action.target}  ${action.detail}` +
            (action.reason === '' ? '' : `  reason: ${quoted(action.reason)}`),
        )
      }
      return 0
    }
  }
}

/** A pseudonym as it is; an address as its pseudonym (no address is stored); a range as written. */
function blockTarget(
  text: string,
  operator: ComposedOperator,
): { kind: ClientBlock['kind']; target: string } {
  if (isPseudonym(text)) return { kind: 'editor', target: text }
  if (isIP(text) !== 0) return { kind: 'editor', target: operator.pseudonymOf(text) }
  const range = parseRange(text)
  if (range !== undefined) return { kind: 'range', target: `${range.address}/${range.prefix}` }
  throw new UsageError(`${quoted(text)} is not a pseudonym, an address or a CIDR range`)
}
