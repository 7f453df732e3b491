import fc from 'fast-check'
import type { ComposedServer } from '@/composition/server/server.composition'
import {
  TEST_DATABASES,
  TEST_POSTGRES_URL,
  composeTestServer,
  removeTempDirs,
  templateDistDir,
} from './server-fixture'
import { describeRequest, fuzzRequests, seedAndLearn } from './support/fuzz-requests'

/*
 * Whatever a client sends, the real composed server (the API, and the rendered pages) never
 * answers a 5xx, inject never throws, and the server is healthy afterwards; on every engine the
 * suite has. On a failure fast-check shrinks the request, and the test prints it with the seed
 * and the path that replay it. `npm test` runs a fixed seed without the pages; `npm run
 * test:fuzz` runs long, pages too (FUZZ_PAGES=1), on a fresh seed (FUZZ_SEED=fresh), which it
 * prints; FUZZ_SEED=<seed> replays a run, and with FUZZ_PATH=<path> only its shrunk failure.
 * FUZZ_REQUESTS sets how many requests each engine gets.
 */
const seedOption = process.env.FUZZ_SEED?.trim()
const SEED = !seedOption
  ? 20_261_127
  : seedOption === 'fresh'
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(seedOption)
const PATH = process.env.FUZZ_PATH?.trim() || undefined
const SHRINKING_MS = 30_000
const RUNS = Number(process.env.FUZZ_REQUESTS?.trim() || 300)
// Rendering the pages loads the whole UI, seconds of the suite's time: the long run only.
const PAGES = process.env.FUZZ_PAGES?.trim() === '1'

const REPLAY = `FUZZ_SEED=${SEED} FUZZ_REQUESTS=${RUNS} FUZZ_PAGES=${Number(PAGES)}`
console.info(
  `Fuzz seed ${SEED}, ${RUNS} requests per engine (replay: ${REPLAY} npm run test:fuzz).`,
)
if (TEST_POSTGRES_URL === undefined) {
  console.warn('Fuzzing SQLite only: set TEST_POSTGRES_URL to fuzz PostgreSQL too.')
}

afterAll(removeTempDirs)

describe.each(TEST_DATABASES)('$name under random requests', (kind) => {
  let server: ComposedServer
  let dispose: () => Promise<void>

  beforeAll(async () => {
    const database = await kind.create()
    dispose = () => database.dispose()
    // A write limit too high to refuse anything, so that its counting runs on every write.
    server = await composeTestServer(
      { DATABASE_URL: database.url, WRITE_RATE_LIMIT: '1000000' },
      PAGES ? { distDir: templateDistDir(), renderer: await import('@/ui/app/server-render') } : {},
    )
  })

  afterAll(async () => {
    await server.close()
    await dispose()
  })

  it(
    `answers ${RUNS} random requests without a 5xx, and is healthy afterwards`,
    async () => {
      const { app } = server
      const requests = fuzzRequests(await seedAndLearn(app))
      const statuses = new Map<number, number>()
      const started = performance.now()
      let failedAt = Infinity
      const run = await fc.check(
        fc.asyncProperty(requests, async (request) => {
          // Shrinking a long text takes thousands of requests: what it has come to by then stands.
          if (performance.now() - failedAt > SHRINKING_MS) return
          try {
            const { statusCode, body } = await app.inject(request)
            if (failedAt === Infinity) statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1)
            if (statusCode >= 500) throw new Error(`answered ${statusCode} ${body.slice(0, 300)}`)
          } catch (error) {
            failedAt = Math.min(failedAt, performance.now())
            throw error
          }
        }),
        { seed: SEED, numRuns: RUNS, path: PATH },
      )
      const spread = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`)
      const seconds = ((performance.now() - started) / 1000).toFixed(1)
      console.info(`${kind.name}: ${run.numRuns} requests in ${seconds} s; ${spread.join(', ')}`)

      if (run.failed) {
        const [request] = run.counterexample ?? []
        expect.fail(
          `${kind.name}: a request failed after ${run.numRuns} runs; shrunk ${run.numShrinks} times` +
            `${performance.now() - failedAt > SHRINKING_MS ? ' (then stopped: time)' : ''}:\n` +
            `  ${request === undefined ? '(none)' : describeRequest(request)}\n` +
            `  ${String(run.errorInstance)}\n` +
            `Replay: ${REPLAY} FUZZ_PATH=${run.counterexamplePath} npm run test:fuzz`,
        )
      }
      expect((await app.inject('/api/health')).statusCode).toBe(200)
    },
    120_000 + SHRINKING_MS + RUNS * 50,
  )
})
