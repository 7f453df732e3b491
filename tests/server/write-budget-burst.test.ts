import { burst, countOf, forwardedPost, send } from '../../scripts/bench/write-burst'
import { listening } from './support/live-servers'
import { describeOnDatabases, useDatabase, useServer } from './server-fixture'

const BUDGET = 60
/** The bound: a burst may get at most this many writes through a budget of 60. */
const MOST_ACCEPTED = 64
const BURST = 300

const GOOD_POST = JSON.stringify({ title: 'Burst', body: 'One of many.', author: 'Flood' })
/** Refused by validation (422) once its body is read, after it reserved its unit. */
const BAD_POST = JSON.stringify({ title: '', body: 'No title.', author: 'Flood' })

describeOnDatabases('the write budget under a burst behind a proxy, on $name', (kind) => {
  const database = useDatabase(kind)
  const env = { WRITE_RATE_LIMIT: String(BUDGET), TRUST_PROXY: '127.0.0.1' }
  const { server } = useServer({ database, env })
  let port: number

  beforeAll(async () => {
    port = Number(new URL(await listening(server)).port)
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
