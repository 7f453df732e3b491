import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
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
