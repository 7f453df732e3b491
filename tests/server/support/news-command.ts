import { execFile } from 'node:child_process'
import { Writable } from 'node:stream'
import { promisify } from 'node:util'
import { runCommand } from '../../../scripts/cli/command-line'
import { news as newsCommand } from '../../../scripts/cli/news'
import { REPO_ROOT } from '../server-process'

/** What `npm run news` runs: the compiled command (tests/global-setup.ts built it). */
const COMPILED_NEWS = 'dist-node/news.js'

const run = promisify(execFile)

/** A run of the compiled command starts a new node process: a second or more on a busy machine. */
export const CLI_TIMEOUT = 60_000

export interface Outcome {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** A stream that keeps what is written to it, as text. */
class Kept extends Writable {
  private text = ''

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString()
    done()
  }

  override toString(): string {
    return this.text
  }
}

/**
 * Runs `npm run news -- ARGS` over the database `databaseUrl` names, in this process: the
 * command's own code, from its arguments to its exit status and what it prints, without the
 * second of starting node. `newsProgram` runs the compiled program itself.
 */
export async function news(databaseUrl: string, ...args: string[]): Promise<Outcome> {
  const stdout = new Kept()
  const stderr = new Kept()
  const env = { ...process.env, DATABASE_URL: databaseUrl }
  const code = await runCommand('news', newsCommand, args, { env, stdout, stderr })
  return { code, stdout: stdout.toString(), stderr: stderr.toString() }
}

/** Runs the compiled `npm run news -- ARGS` as an operator would: a process of its own. */
export async function newsProgram(databaseUrl: string, ...args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, [COMPILED_NEWS, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      maxBuffer: 64 * 1024 * 1024,
    })
    return { code: 0, stdout, stderr }
  } catch (thrown) {
    const failed = thrown as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}
