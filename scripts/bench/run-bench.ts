import { rmSync } from 'node:fs'

/**
 * Runs a benchmark's `main`: a failure prints one line and sets exit code 1, and the benchmark's
 * scratch folder `work` is removed either way.
 */
export function runBench(name: string, main: () => Promise<void>, work: string): void {
  main()
    .catch((error: unknown) => {
      process.stderr.write(
        `${name} failed: ${error instanceof Error ? error.message : String(error)}\n`,
      )
      process.exitCode = 1
    })
    .finally(() => rmSync(work, { recursive: true, force: true }))
}
