import { rmSync } from 'node:fs'
import { ensureBrowserBuilt, ensureServerBuilt } from '../../scripts/built.mjs'
import { AXE_DIR, SCREENSHOTS_DIR } from './support/paths'
import { findChromium, INSTALL_HINT, NPM_CHROMIUM, unpackNpmChromium } from './support/chromium'

/**
 * Runs once per `npm run test:e2e`: checks that a browser exists (never skipping quietly),
 * builds the app as production does when its build is older than its sources, and clears the
 * last run's pictures and axe reports.
 */
export default async function globalSetup(): Promise<void> {
  const browser = findChromium()
  if (browser === undefined) throw new Error(INSTALL_HINT)
  if (browser.executablePath === NPM_CHROMIUM) await unpackNpmChromium()
  console.log(`e2e: Chromium from ${browser.source}: ${browser.executablePath}`)

  const started = Date.now()
  // `npm run build`'s two steps, each only when its sources changed since it last ran, as
  // `npm start` checks: CI builds once, before the browser and integration tests run side by side.
  ensureBrowserBuilt()
  await ensureServerBuilt()
  console.log(`e2e: dist/ and dist-node/ are built (${Date.now() - started} ms)`)

  rmSync(SCREENSHOTS_DIR, { recursive: true, force: true })
  rmSync(AXE_DIR, { recursive: true, force: true })
}
