import type { AddressInfo } from 'node:net'
import { burst, countOf, forwardedPost, send } from '../../scripts/bench/write-burst'
import type { ComposedServer } from '@/composition/server/server.composition'
import {
  composeTestServer,
  removeTempDirs,
  TEST_DATABASES,
  TEST_POSTGRES_URL,
  type TestDatabase,
} from './server-fixture'

if (TEST_POSTGRES_URL === undefined) {
  console.warn('write budget burst on PostgreSQL: SKIPPED because TEST_POSTGRES_URL is not set')
}

afterAll(removeTempDirs)

const BUDGET = 60
/** The bound: a burst may get at most this many writes through a budget of 60. */
const MOST_ACCEPTED = 64
const BURST = 300

const GOOD_POST = JSON.stringify({ title: 'Burst', body: 'One of many.', author: 'Flood' })
/** Refused by validation (422) once its body is read, after it reserved its unit. */
const BAD_POST = JSON.stringify({ title: '', body: 'No title.', author: 'Flood' })

describe.each(TEST_DATABASES)('the write budget under a burst behind a proxy, on $name', (kind) => {
  let database: TestDatabase
  let server: ComposedServer
  let port: number

  beforeAll(async () => {
    database = await kind.create()
    server = await composeTestServer({
      DATABASE_URL: database.url,
      WRITE_RATE_LIMIT: String(BUDGET),
      TRUST_PROXY: '127.0.0.1',
    })
    await server.app.listen({ port: 0, host: '127.0.0.1' })
    port = (server.app.server.address() as AddressInfo).port
  })
  afterAll(async () => {
    await server?.close()
    await database?.dispose()
  })

  it('lets at most 64 of 300 concurrent writes from one address through a budget of 60', async () => {
    const statuses = await burst(
      port,
      Array.from({ length: BURST }, () => forwardedPost('203.0.113.10', GOOD_POST)),
    )
    expect(countOf(statuses, 201)).toBeLessThanOrEqual(MOST_ACCEPTED)
    expect(countOf(statuses, 201)).toBeGreaterThan(0)
    expect(countOf(statuses, 201) + countOf(statuses, 429)).toBe(BURST)
  })

  it('gives back the unit of each refused write, so the refused ones leave the budget whole', async () => {
    const client = '203.0.113.11'
    const statuses = await burst(
      port,
      Array.from({ length: BURST }, (_, index) =>
        forwardedPost(client, index % 2 === 0 ? BAD_POST : GOOD_POST),
      ),
    )
    expect(countOf(statuses, 201)).toBeLessThanOrEqual(MOST_ACCEPTED)
    expect(countOf(statuses, 422)).toBeGreaterThan(0)
    // What the burst left of the budget, spent one write at a time: no unit a 422 reserved stays
    // held, so the accepted writes add up to the whole budget.
    let accepted = countOf(statuses, 201)
    while ((await send(port, forwardedPost(client, GOOD_POST))) === 201) accepted += 1
    expect(accepted).toBeGreaterThanOrEqual(BUDGET)
    expect(accepted).toBeLessThanOrEqual(MOST_ACCEPTED)
  })
})
