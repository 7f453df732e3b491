import type { ComposedServer } from '@/composition/server/server.composition'
import {
  JSON_HEADERS,
  TEST_DATABASES,
  TEST_POSTGRES_URL,
  composeTestServer,
} from './server-fixture'
import { describeRequest, FuzzState, fuzzRequest, type FuzzRequest } from './support/fuzz-requests'
import { freshSeed, SeededRandom } from './support/seeded-random'

/*
 * Seeded random requests against the real composed server, on every engine the suite has:
 * whatever a client sends, the answer is never a 5xx, and the server stays healthy. In
 * `npm test` the seed is fixed and the run short, so that it gives the same verdict every time;
 * `npm run test:fuzz` runs long on a fresh seed (FUZZ_SEED=fresh) and prints it, and
 * FUZZ_SEED=<seed> replays a run. FUZZ_REQUESTS sets how many requests each engine gets.
 */
const FIXED_SEED = 20_261_127
const seedOption = process.env.FUZZ_SEED?.trim()
const SEED = !seedOption ? FIXED_SEED : seedOption === 'fresh' ? freshSeed() : Number(seedOption)
const REQUESTS = Number(process.env.FUZZ_REQUESTS?.trim() || 300)
const SHOWN_FAILURES = 10

console.info(`Fuzz seed ${SEED}, ${REQUESTS} requests per engine (replay: FUZZ_SEED=${SEED}).`)
if (TEST_POSTGRES_URL === undefined) {
  console.warn('Fuzzing SQLite only: set TEST_POSTGRES_URL to fuzz PostgreSQL too.')
}

interface Failure {
  readonly index: number
  readonly request: FuzzRequest
  readonly answer: string
}

describe.each(TEST_DATABASES)('$name under seeded random requests', (kind) => {
  let server: ComposedServer
  let dispose: () => Promise<void>

  beforeAll(async () => {
    const database = await kind.create()
    dispose = () => database.dispose()
    // A write limit too high to refuse anything, so that its counting runs on every write.
    server = await composeTestServer({ DATABASE_URL: database.url, WRITE_RATE_LIMIT: '1000000' })
  })

  afterAll(async () => {
    await server.close()
    await dispose()
  })

  it(`answers ${REQUESTS} random requests without a 5xx, and is healthy afterwards`, async () => {
    const { app } = server
    const random = new SeededRandom(SEED)
    const state = new FuzzState()
    // A few real posts with a history, so that ids, cursors and ETags can be aimed at them.
    for (let index = 0; index < 30; index += 1) {
      const created = await app.inject({
        method: 'POST',
        url: '/api/news',
        headers: JSON_HEADERS,
        payload: { title: `Post ${index}`, body: 'Body', author: 'Ada' },
      })
      state.learn(created)
      const id = state.ids.at(-1)
      await app.inject({
        method: 'PATCH',
        url: `/api/news/${id}`,
        headers: JSON_HEADERS,
        payload: { body: 'Edited' },
      })
    }
    state.learn(await app.inject('/api/news?limit=5'))

    const failures: Failure[] = []
    const statuses = new Map<number, number>()
    const started = performance.now()
    for (let index = 0; index < REQUESTS; index += 1) {
      const request = fuzzRequest(random, state)
      try {
        const response = await app.inject(request)
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1)
        if (response.statusCode >= 500) {
          failures.push({
            index,
            request,
            answer: `${response.statusCode} ${response.body.slice(0, 200)}`,
          })
        }
        state.learn(response)
      } catch (error) {
        failures.push({ index, request, answer: `inject threw ${String(error)}` })
      }
    }
    const seconds = (performance.now() - started) / 1000
    const spread = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}: ${count}`)
    console.info(
      `${kind.name}: ${REQUESTS} requests in ${seconds.toFixed(1)} s; ${spread.join(', ')}`,
    )

    const shown = failures
      .slice(0, SHOWN_FAILURES)
      .map(
        ({ index, request, answer }) =>
          `FUZZ_SEED=${SEED} request #${index} on ${kind.name} answered ${answer}\n  ${describeRequest(request)}`,
      )
    expect(shown, `${failures.length} requests answered 5xx`).toEqual([])
    const health = await app.inject('/api/health')
    expect(health.statusCode).toBe(200)
  }, 180_000)
})
