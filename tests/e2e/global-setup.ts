import { spawnSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { AXE_DIR, REPO_ROOT, SCREENSHOTS_DIR } from './support/paths'
import { findChromium, INSTALL_HINT, NPM_CHROMIUM, unpackNpmChromium } from './support/chromium'

/**
 * Runs once per `npm run test:e2e`: checks that a browser exists (never skipping quietly),
 * builds the app as production does, and clears the last run's pictures and axe reports.
 */
export default async function globalSetup(): Promise<void> {
  const browser = findChromium()
  if (browser === undefined) throw new Error(INSTALL_HINT)
  if (browser.executablePath === NPM_CHROMIUM) await unpackNpmChromium()
  console.log(`e2e: Chromium from ${browser.source}: ${browser.executablePath}`)

  const started = Date.now()
  // `npm run build`'s two steps: the browser's app, then the compiled server.
  for (const step of [['node_modules/vite/bin/vite.js', 'build'], ['scripts/build-server.mjs']]) {
    const build = spawnSync(process.execPath, step, { cwd: REPO_ROOT, encoding: 'utf8' })
    if (build.status !== 0) {
      throw new Error(`e2e: the production build failed:\n${build.stdout}\n${build.stderr}`)
    }
  }
  console.log(`e2e: built dist/ and dist-node/ in ${Date.now() - started} ms`)

  rmSync(SCREENSHOTS_DIR, { recursive: true, force: true })
  rmSync(AXE_DIR, { recursive: true, force: true })
}
