import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'

export const DEBIAN_CHROMIUM = '/usr/bin/chromium'

export interface FoundBrowser {
  readonly executablePath: string
  /** Where the path came from, for the run's log. */
  readonly source: string
}

/** Flags that let Chromium run here: as root, without a GPU, and without reaching the internet. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const

export const INSTALL_HINT = [
  'The end-to-end tests need Chromium, and none was found. Normally `npm ci` installs one',
  '(@sparticuz/chromium, whose binary ships inside the npm package); or use one of these:',
  '  - Debian or Ubuntu: apt-get update && apt-get install -y chromium   (gives /usr/bin/chromium)',
  '  - any Chrome or Chromium already installed: export CHROME_PATH=/path/to/chrome',
].join('\n')

/**
 * Where @sparticuz/chromium unpacks its browser (its `executablePath()` writes it there once).
 * Known in advance, so that the Playwright config, which must be synchronous, can name it;
 * the global setup unpacks it before any worker launches a browser.
 */
export const NPM_CHROMIUM = join(tmpdir(), 'chromium')
const NPM_CHROMIUM_PACKAGE = 'node_modules/@sparticuz/chromium/bin/chromium.br'

/**
 * The Chromium the suite drives: CHROME_PATH, else Debian's /usr/bin/chromium, else
 * Playwright's own build if it was installed, else the one `npm ci` installed
 * (@sparticuz/chromium), so that `npm ci && npm test` needs no system package. A CHROME_PATH
 * that names nothing is an error, not a reason to quietly test another browser.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): FoundBrowser | undefined {
  const fromEnv = env.CHROME_PATH?.trim()
  if (fromEnv) {
    if (!existsSync(fromEnv)) {
      throw new Error(
        `CHROME_PATH is set to ${fromEnv}, but there is no file there.\n${INSTALL_HINT}`,
      )
    }
    return { executablePath: fromEnv, source: 'CHROME_PATH' }
  }
  if (existsSync(DEBIAN_CHROMIUM)) return { executablePath: DEBIAN_CHROMIUM, source: 'Debian' }
  const own = playwrightChromium()
  if (own !== undefined) return { executablePath: own, source: "Playwright's own" }
  if (existsSync(NPM_CHROMIUM_PACKAGE)) {
    return { executablePath: NPM_CHROMIUM, source: 'npm (@sparticuz/chromium)' }
  }
  return undefined
}

/** Unpacks the npm-installed browser where findChromium said it would be; idempotent. */
export async function unpackNpmChromium(): Promise<void> {
  const { default: npmChromium } = await import('@sparticuz/chromium')
  const path = await npmChromium.executablePath()
  if (path !== NPM_CHROMIUM) {
    throw new Error(`@sparticuz/chromium unpacked to ${path}, not ${NPM_CHROMIUM}`)
  }
}

function playwrightChromium(): string | undefined {
  try {
    const path = chromium.executablePath()
    return existsSync(path) ? path : undefined
  } catch {
    return undefined
  }
}
