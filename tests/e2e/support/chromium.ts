import { existsSync } from 'node:fs'
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
  'The end-to-end tests need Chromium, and none was found. Install one of these:',
  '  - Debian or Ubuntu: apt-get update && apt-get install -y chromium   (gives /usr/bin/chromium)',
  '  - any Chrome or Chromium already installed: export CHROME_PATH=/path/to/chrome',
  "  - Playwright's own build, where downloads are allowed: npx playwright install chromium",
].join('\n')

/**
 * The Chromium the suite drives: CHROME_PATH, else Debian's /usr/bin/chromium, else
 * Playwright's own build if it was installed. A CHROME_PATH that names nothing is an error,
 * not a reason to quietly test another browser.
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
  return own === undefined ? undefined : { executablePath: own, source: "Playwright's own" }
}

function playwrightChromium(): string | undefined {
  try {
    const path = chromium.executablePath()
    return existsSync(path) ? path : undefined
  } catch {
    return undefined
  }
}
