/**
 * `npm start`: builds the app with `vite build` (the browser's files in dist/, the server's entry
 * in dist-server/) when either is missing or dist/index.html is older than
 * any file the browser build reads, then runs the server (src/composition/server/main.ts) in
 * this process. Server-only sources do not trigger a build. `--no-build` skips the check.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BUILD_INPUTS = ['src', 'index.html', 'public', 'vite.config.ts', 'package-lock.json']
const SERVER_ONLY = [
  'src/server',
  'src/adapters/sql',
  'src/adapters/outbox',
  'src/composition/server',
]
const BUILT = join(ROOT, 'dist', 'index.html')
/** The server's entry into the app, built beside it (vite.config.ts). */
const BUILT_SERVER_ENTRY = join(ROOT, 'dist-server', 'server-render.js')

/** The newest modification time under `path`, skipping the server-only folders. */
function newest(path: string): number {
  if (!existsSync(path)) return 0
  const inside = relative(ROOT, path).split('\\').join('/')
  if (SERVER_ONLY.includes(inside)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let latest = 0
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)))
  return latest
}

export function buildIsStale(): boolean {
  if (!existsSync(BUILT) || !existsSync(BUILT_SERVER_ENTRY)) return true
  const built = statSync(BUILT).mtimeMs
  return BUILD_INPUTS.some((input) => newest(join(ROOT, input)) > built)
}

if (!process.argv.includes('--no-build') && buildIsStale()) {
  console.log('Building the app (vite build) …')
  const build = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  )
  if (build.status !== 0) {
    console.error('The build failed; the server was not started.')
    process.exit(build.status ?? 1)
  }
}

await import('@/composition/server/main')
