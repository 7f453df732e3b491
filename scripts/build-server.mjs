/**
 * Compiles the server and the operator's commands to plain JavaScript in dist-node/ (esbuild,
 * which Vite and tsx already bring), so that `npm start`, `npm run news` and `npm run outbox`
 * run them with node alone: no TypeScript at run time. Packages stay external and load from
 * node_modules. Plain JavaScript itself, so that it runs before anything is compiled.
 *
 *   node scripts/build-server.mjs      (part of `npm run build`)
 */
import { rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const SERVER_OUT_DIR = fileURLToPath(new URL('../dist-node', import.meta.url))

/** The compiled programs, by the name of the file each becomes in dist-node/. */
export const SERVER_ENTRIES = {
  server: 'src/composition/server/main.ts',
  news: 'scripts/news.ts',
  outbox: 'scripts/outbox.ts',
}

export async function buildServer() {
  rmSync(SERVER_OUT_DIR, { recursive: true, force: true })
  await build({
    absWorkingDir: ROOT,
    entryPoints: SERVER_ENTRIES,
    outdir: SERVER_OUT_DIR,
    bundle: true,
    // One copy of the code the programs share, loaded once each.
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildServer()
}
