/**
 * What `npm start`, `npm run news` and `npm run outbox` check before they run: that the compiled
 * server (dist-node/, scripts/build-server.mjs) and, for the site, the browser's build (dist/
 * and dist-server/, `vite build`) are newer than their sources; each is built again only when
 * stale. Plain JavaScript, so that it runs with node alone.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { buildServer, ROOT, SERVER_OUT_DIR } from './build-server.mjs'

const BROWSER_INPUTS = ['src', 'index.html', 'public', 'vite.config.ts', 'package-lock.json']
/** Sources the browser's build never reads: a change to them rebuilds only the server. */
const SERVER_ONLY = [
  'src/server',
  'src/adapters/sql',
  'src/adapters/outbox',
  'src/composition/server',
]
const SERVER_INPUTS = [
  'src',
  'scripts/news.ts',
  'scripts/outbox.ts',
  'scripts/cli',
  'package-lock.json',
]
const BROWSER_BUILT = [
  join(ROOT, 'dist', 'index.html'),
  join(ROOT, 'dist-server', 'server-render.js'),
]
const SERVER_BUILT = join(SERVER_OUT_DIR, 'server.js')

/** The newest modification time under `path`, skipping the folders in `skip`. */
function newest(path, skip = []) {
  if (!existsSync(path)) return 0
  if (skip.includes(relative(ROOT, path).split('\\').join('/'))) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let latest = 0
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry), skip))
  return latest
}

function stale(built, inputs, skip) {
  if (!built.every((file) => existsSync(file))) return true
  const oldest = Math.min(...built.map((file) => statSync(file).mtimeMs))
  return inputs.some((input) => newest(join(ROOT, input), skip) > oldest)
}

/** Builds the browser's app when stale; exits with the build's status when it fails. */
export function ensureBrowserBuilt() {
  if (!stale(BROWSER_BUILT, BROWSER_INPUTS, SERVER_ONLY)) return
  console.log('Building the app (vite build) …')
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js')
  // The production build whoever asks: a test runner's NODE_ENV=test would build React's
  // development code.
  const build = spawnSync(process.execPath, [vite, 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (build.status !== 0) {
    console.error('The build failed; nothing was started.')
    process.exit(build.status ?? 1)
  }
}

/** Compiles the server and the commands when stale. */
export async function ensureServerBuilt() {
  if (stale([SERVER_BUILT], SERVER_INPUTS, [])) await buildServer()
}

/** Runs a compiled program of dist-node/ in this process, so that signals reach it directly. */
export async function runCompiled(name) {
  await import(new URL(`../dist-node/${name}.js`, import.meta.url).href)
}
