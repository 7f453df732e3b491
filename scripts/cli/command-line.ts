import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Writable } from 'node:stream'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import type { DatabaseTarget } from '@/application/database-target'
import type { ServerConfig } from '@/server/services/server-config'
import { ConfigError } from '@/server/services/config-error'

/**
 * What the operator's commands (`npm run news`, `npm run outbox`) share: one-line failures with
 * exit status 1, argument parsing that says what is wrong in node:util's first sentence, and the
 * check that a SQLite path names a database that exists.
 */

/** A failure the operator can fix: printed as one line, exit status 1. */
export class UsageError extends Error {}

/**
 * Where a command reads its settings and writes its answers: the process's own when it runs as
 * a program, buffers when a test runs it in its own process.
 */
export interface CommandIo {
  readonly env: NodeJS.ProcessEnv
  readonly stdout: Writable
  readonly stderr: Writable
}

/** A command's work over its arguments; its answer is the exit status. */
export type CommandMain = (args: readonly string[], io: CommandIo) => Promise<number>

/** A post id that begins with a dash: 22 base64url characters. */
const POST_ID_LIKE = /^-[A-Za-z0-9_-]{21}$/

/** Positionals and the given options, or a UsageError naming the bad one. */
export function parseCommandLine<Options extends NonNullable<ParseArgsConfig['options']>>(
  args: readonly string[],
  options: Options,
) {
  try {
    // A post id may begin with '-' (ids are base64url): one that is not an option's name is
    // taken as given, not as a cluster of short options.
    const ids = new Map<string, string>()
    const marked = args.map((arg, index) => {
      if (!POST_ID_LIKE.test(arg)) return arg
      const mark = `\u0000${index}`
      ids.set(mark, arg)
      return mark
    })
    const parsed = parseArgs({ args: marked, allowPositionals: true, options })
    return {
      ...parsed,
      positionals: parsed.positionals.map((positional) => ids.get(positional) ?? positional),
    }
  } catch (error) {
    // node:util's first sentence says it ("Unknown option '--sinse'"); the rest is advice.
    const message = error instanceof Error ? error.message : String(error)
    throw new UsageError(message.split('. ', 1)[0] ?? message)
  }
}

/**
 * The server's settings from the environment, loaded only by a command that needs them (so that
 * `--help` and a usage error answer at once), once DATABASE_URL is known to name a database;
 * `creates`: a command that fills a new database (import) may name one that does not exist yet.
 */
export async function readOperatorConfig(
  env: NodeJS.ProcessEnv,
  { creates = false }: { readonly creates?: boolean } = {},
): Promise<ServerConfig> {
  const { readConfig } = await import('@/composition/server/read-config')
  const config = readConfig(env)
  if (!creates) refuseMissingDatabase(config.database)
  return config
}

/** A mistyped SQLite path should not create an empty database and report it empty. */
function refuseMissingDatabase(target: DatabaseTarget): void {
  if (
    target.engine === 'sqlite' &&
    target.path !== ':memory:' &&
    !existsSync(resolve(target.path))
  ) {
    throw new UsageError(`there is no database at ${target.path}; set DATABASE_URL`)
  }
}

/**
 * Runs a command's `main`: its answer is the exit status; a failure is one line on standard
 * error, `NAME: …`, and status 1.
 */
export async function runCommand(
  name: string,
  main: CommandMain,
  args: readonly string[],
  io: CommandIo,
): Promise<number> {
  try {
    return await main(args, io)
  } catch (error) {
    io.stderr.write(`${name}: ${describeFailure(name, error)}\n`)
    return 1
  }
}

/** Runs a command as the program: on the process's arguments, environment and streams. */
export function runProgram(name: string, main: CommandMain): void {
  const io = { env: process.env, stdout: process.stdout, stderr: process.stderr }
  void runCommand(name, main, process.argv.slice(2), io).then((code) => {
    process.exitCode = code
  })
}

function describeFailure(name: string, error: unknown): string {
  if (error instanceof UsageError) return `${error.message} (npm run ${name} -- --help)`
  if (error instanceof ConfigError) return error.problems.join('; ')
  const message = error instanceof Error ? error.message : String(error)
  return error instanceof Error && error.cause instanceof Error
    ? `${message}: ${error.cause.message}`
    : message
}
