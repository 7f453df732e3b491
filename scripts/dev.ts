/**
 * `npm run dev`: the API (tsx watch, restarted on change) and Vite's dev server together.
 * Vite proxies /api to the API (vite.config.ts reads API_PROXY_TARGET). Once both answer, the
 * one address to open is printed last, after both start-up banners. Ctrl-C, or either side
 * ending, stops both.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ConfigError } from '@/server/services/config-error'
import { readConfig } from '@/composition/server/read-config'
import { type ServerConfig } from '@/server/services/server-config'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const apiPort = String(apiConfig().port)
const apiTarget = process.env.API_PROXY_TARGET ?? `http://localhost:${apiPort}`

const children: ChildProcess[] = [
  spawn(
    process.execPath,
    [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'watch', 'src/composition/server/main.ts'],
    { cwd: ROOT, stdio: 'inherit', env: { ...process.env, PORT: apiPort } },
  ),
  spawn(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), ...process.argv.slice(2)], {
    cwd: ROOT,
    // Its output is passed on as it comes, and read for the address it serves.
    stdio: ['inherit', 'pipe', 'inherit'],
    // Vite's own PORT would clash with the API's; it picks 5173 unless told otherwise.
    env: { ...process.env, PORT: undefined, API_PROXY_TARGET: apiTarget },
  }),
]

/** The API's settings, read as the API reads them; a bad one stops here with its one line. */
function apiConfig(): ServerConfig {
  try {
    return readConfig(process.env)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    console.error(error.message)
    process.exit(1)
  }
}

const vite = children[1]
const viteAddress = new Promise<string>((resolve) => {
  let seen = ''
  vite?.stdout?.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk)
    // eslint-disable-next-line no-control-regex -- Vite colours its banner.
    seen = (seen + chunk.toString('utf8')).replace(/\u001b\[[0-9;]*m/g, '').slice(-4096)
    const local = /Local:\s+(https?:\/\/\S+)/.exec(seen)?.[1]
    if (local !== undefined) resolve(local)
  })
})

/** Resolves once the API answers its health check; gives up quietly after a minute. */
async function apiReady(): Promise<boolean> {
  for (let tries = 0; tries < 240; tries += 1) {
    try {
      if ((await fetch(`${apiTarget}/api/health`)).ok) return true
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return false
}

void Promise.all([viteAddress, apiReady()]).then(([address, ready]) => {
  if (stopping) return
  const api = ready ? '' : ` (the API at ${apiTarget} is not answering yet; see its log above)`
  process.stdout.write(`\nNewsWire is running. Open ${address}${api}\n`)
})

let stopping = false
function stopAll(code: number): void {
  if (stopping) return
  stopping = true
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
  }
  // Give both a moment to finish, then make sure nothing is left behind.
  setTimeout(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
    process.exit(code)
  }, 3000).unref()
  Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) resolve(undefined)
          else child.once('exit', resolve)
        }),
    ),
  ).then(() => process.exit(code))
}

for (const child of children) child.once('exit', (code) => stopAll(code ?? 0))
process.on('SIGINT', () => stopAll(130))
process.on('SIGTERM', () => stopAll(143))
