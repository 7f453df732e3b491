import { test as base, expect, type Page, type TestInfo } from '@playwright/test'
import { startEmailJsStandIn, type EmailJsStandIn } from './emailjs-stand-in'
import { emptyTrash, liftModeration } from './worker-database'
import { draft, NewsApi, type NewsItem } from './news-api'
import { startNewsWire, type NewsWireServer } from './newswire-server'
import { expectHydrated } from './screens'

/** The image service the cards and articles ask for; there is no internet here, nor in CI. */
export const IMAGE_SERVICE = /^https:\/\/([a-z]+\.)?picsum\.photos\//

export type MailSetup = 'emailjs' | 'outbox'

interface WorkerFixtures {
  /** How the server sends the contact form: to the EmailJS stand-in, or its built-in outbox. */
  mail: MailSetup
  /** Undefined where the outbox is in use. */
  emailJsStandIn: EmailJsStandIn | undefined
  newsWire: NewsWireServer
}

interface TestFixtures {
  /**
   * Whether `goto` and `reload`, in every tab the test opens, wait until the app runs, so that
   * a test's clicks, focus and keys reach the app rather than the server's HTML. On by default;
   * a navigation with `waitUntil: 'commit'` never waits, for tests of what happens before.
   */
  waitForApp: boolean
  /** Empties the site, its trash and the stand-in before each test. */
  freshSite: void
  api: NewsApi
  /** A post on the fresh site, draft(1), made through the API. */
  post: NewsItem
  /** The EmailJS stand-in; fails the test where the outbox is in use. */
  emailJs: EmailJsStandIn
  /** Image-service URLs the page asked for; each was refused, as with no internet. */
  imageService: { readonly requested: string[] }
  /** Fails a test whose page threw or broke the Content-Security-Policy. */
  pageHealth: void
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  mail: ['emailjs', { scope: 'worker', option: true }],

  emailJsStandIn: [
    async ({ mail }, provide) => {
      if (mail !== 'emailjs') return provide(undefined)
      const standIn = await startEmailJsStandIn()
      await provide(standIn)
      await standIn.close()
    },
    { scope: 'worker' },
  ],

  newsWire: [
    async ({ emailJsStandIn }, provide) => {
      const server = await startNewsWire(emailJsStandIn?.account)
      await provide(server)
      await server.stop()
    },
    { scope: 'worker', timeout: 60_000 },
  ],

  baseURL: async ({ newsWire }, provide) => provide(newsWire.origin),

  // Each test is a visitor of its own, from an address of its own, as on a public site: the
  // budgets per address (writes, searches, live streams and their reconnects) are per test,
  // and never spent by the tests that ran before it on the worker's server.
  // Playwright reads a fixture's dependencies from this pattern: this one has none.
  // eslint-disable-next-line no-empty-pattern
  extraHTTPHeaders: async ({}, provide, testInfo) =>
    provide({ 'x-forwarded-for': visitorOf(testInfo) }),

  waitForApp: [true, { option: true }],

  context: async ({ context, waitForApp, javaScriptEnabled }, provide) => {
    if (waitForApp && javaScriptEnabled !== false) {
      // Every tab of the test, the first one (the `page` fixture) as well as any it opens.
      const newPage = context.newPage.bind(context)
      context.newPage = async () => untilAppRuns(await newPage())
    }
    await provide(context)
  },

  api: async ({ newsWire }, provide) => provide(new NewsApi(newsWire.origin)),

  // After the site is emptied for the test, not before.
  post: async ({ api, freshSite: _emptied }, provide) => provide(await api.create(draft(1))),

  emailJs: async ({ emailJsStandIn }, provide) => {
    if (emailJsStandIn === undefined) throw new Error('this test needs the EmailJS stand-in')
    await provide(emailJsStandIn)
  },

  freshSite: [
    async ({ api, emailJsStandIn, newsWire }, provide, testInfo) => {
      const attachServerLog = () =>
        testInfo.attach('server-log.txt', {
          body: newsWire.logs.slice(-80).join('\n'),
          contentType: 'text/plain',
        })
      try {
        liftModeration(newsWire.databasePath)
        await api.clear()
      } catch (error) {
        await attachServerLog()
        const cause = error instanceof Error ? error.cause : undefined
        throw cause === undefined
          ? error
          : new Error(`${String(error)} (${String(cause)})`, { cause: error })
      }
      emptyTrash(newsWire.databasePath)
      emailJsStandIn?.reset()
      await provide()
      if (testInfo.status !== testInfo.expectedStatus) await attachServerLog()
    },
    { auto: true },
  ],

  imageService: [
    async ({ context }, provide) => {
      const requested: string[] = []
      await context.route(IMAGE_SERVICE, async (route) => {
        requested.push(route.request().url())
        await route.abort('internetdisconnected')
      })
      await provide({ requested })
    },
    { auto: true },
  ],

  pageHealth: [
    async ({ page }, provide) => {
      const problems: string[] = []
      page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`))
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
          problems.push(`CSP: ${message.text()}`)
        }
      })
      await provide()
      expect(problems, 'the page threw or broke its Content-Security-Policy').toEqual([])
    },
    { auto: true },
  ],
})

/** The address a test's browser comes from: 10.<worker>.<two bytes of the test's id and repeat>. */
export function visitorOf(testInfo: Pick<TestInfo, 'workerIndex' | 'testId' | 'repeatEachIndex'>) {
  let hash = 0
  for (const char of `${testInfo.testId}/${testInfo.repeatEachIndex}`) {
    hash = (hash * 31 + char.charCodeAt(0)) >>> 0
  }
  return `10.${testInfo.workerIndex % 256}.${(hash >>> 8) & 255}.${hash & 255}`
}

/**
 * Waits, after each `goto` and `reload` of `page`, until the app runs in it; a navigation with
 * `waitUntil: 'commit'` does not wait.
 */
function untilAppRuns(page: Page): Page {
  const goto = page.goto.bind(page)
  const reload = page.reload.bind(page)
  const waited = async <T>(navigation: Promise<T>, waitUntil?: string): Promise<T> => {
    const response = await navigation
    if (waitUntil !== 'commit') await expectHydrated(page)
    return response
  }
  page.goto = (url, options) => waited(goto(url, options), options?.waitUntil)
  page.reload = (options) => waited(reload(options), options?.waitUntil)
  return page
}

/** A group of tests that run with JavaScript off, as a visitor without it, or a crawler. */
export function withoutJavaScript(title: string, tests: () => void): void {
  test.describe(title, () => {
    test.use({ javaScriptEnabled: false })
    tests()
  })
}

export { expect }
