import { fileURLToPath } from 'node:url'
import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, findChromium } from './support/chromium'
import { RESULTS_DIR } from './support/paths'

/**
 * The end-to-end suite's settings; playwright.config.ts at the root hands them to Playwright.
 * They live here so that the type check covers them; paths are absolute because Playwright
 * resolves relative ones against the root file.
 */
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))
const browser = findChromium()

export const e2eConfig = defineConfig({
  testDir: here('.'),
  testMatch: '**/*.spec.ts',
  globalSetup: here('./global-setup.ts'),
  outputDir: `${RESULTS_DIR}/e2e`,
  // Each worker runs its own server and database, and each test starts from an empty site as a
  // visitor of its own: any test may run on any worker, so that the long files share out.
  fullyParallel: true,
  // Three on two cores: much of a test is waiting (a toast's 5 s, a live event, a reload), and
  // a third worker fills those waits. On the 2-core machine the suite took 145 s with two and
  // 125 s with three, with no test flaky; four took longer again.
  workers: Number(process.env.E2E_WORKERS ?? 3),
  // In CI a test that fails once runs once more, and Playwright reports it as flaky (failing
  // twice fails the run): a busy CI machine must not block a change on one timing, while the
  // report still names the test to look at. Locally a failure is a failure.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: `${RESULTS_DIR}/e2e-report` }]],
  use: {
    browserName: 'chromium',
    headless: true,
    // The global setup fails with install instructions when no browser was found.
    launchOptions: { executablePath: browser?.executablePath, args: [...CHROMIUM_ARGS] },
    viewport: { width: 1280, height: 800 },
    // Far from UTC, so that a date shown in UTC instead of local time is caught.
    timezoneId: 'Pacific/Auckland',
    locale: 'en-NZ',
    // A trace records every step and frame: a quarter of the suite's CPU (290 CPU-s with one
    // per test, 223 without). In CI it is recorded for the retry of a failed test only.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
})
