import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { REPO_ROOT } from '../server-process'

/** What `npm run news` runs: the compiled command (tests/global-setup.ts built it). */
const COMPILED_NEWS = 'dist-node/news.js'

const run = promisify(execFile)

/** Each run starts a new node process: a second or more on a busy machine. */
export const CLI_TIMEOUT = 60_000

export interface Outcome {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs `npm run news -- ARGS` as an operator would, over the database `databaseUrl` names. */
export async function news(databaseUrl: string, ...args: string[]): Promise<Outcome> {
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
