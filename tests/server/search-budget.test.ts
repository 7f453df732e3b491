import { sql } from 'kysely'
import type { ComposedServer } from '@/composition/server/server.composition'
import { SEARCH_GROUP } from '@/server/plugins/search-limit'
import { pseudonymizer } from '@/server/services/pseudonyms'
import { SITE_SECRETS, siteSecret } from '@/adapters/sql/site-secrets'
import * as renderer from '@/ui/app/server-render'
import {
  composeTestServer,
  logCapture,
  templateDistDir,
  describeOnDatabases,
  useTwoServers,
} from './server-fixture'

const BUDGET = 3

function searchFrom(server: ComposedServer, remoteAddress: string, q = 'harbour') {
  return server.app.inject({ url: `/api/news?q=${encodeURIComponent(q)}`, remoteAddress })
}

function pageFrom(server: ComposedServer, remoteAddress: string, q = 'harbour') {
  return server.app.inject({ url: `/search?q=${encodeURIComponent(q)}`, remoteAddress })
}

describeOnDatabases('the search budget shared by two servers on $name', (kind) => {
  const { a, b } = useTwoServers(kind, {
    env: { SEARCH_RATE_LIMIT: String(BUDGET) },
    options: { distDir: templateDistDir(), renderer },
  })
  const servers = { first: a, second: b }

  it('draws a client’s searches on every server, API and page, from one budget', async () => {
    const client = '198.51.100.7'
    expect((await searchFrom(servers.first, client)).statusCode).toBe(200)
    expect((await pageFrom(servers.second, client)).statusCode).toBe(200)
    // A query the rules refuse has cost its request too.
    expect((await searchFrom(servers.second, client, '')).statusCode).toBe(400)

    const refused = await searchFrom(servers.first, client)
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60)
    expect(refused.json()).toMatchObject({
      status: 429,
      detail: expect.stringMatching(/^Too many searches from your address\. Retry in \d+ s\.$/),
    })
    expect((await searchFrom(servers.second, '198.51.100.8')).statusCode).toBe(200)
    // Reads that are not searches draw on no budget.
    expect(
      (await servers.second.app.inject({ url: '/api/news', remoteAddress: client })).statusCode,
    ).toBe(200)
  })

  it('answers the search page past the budget with the API’s 429, without rendering it', async () => {
    const client = '198.51.100.9'
    for (let search = 0; search < BUDGET; search += 1) {
      expect((await pageFrom(servers.first, client)).statusCode).toBe(200)
    }
    const refused = await pageFrom(servers.second, client)
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['content-type']).toBe('application/problem+json; charset=utf-8')
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    expect(refused.json()).toMatchObject({ status: 429 })
  })

  it('answers a client past its budget from a read: its count, under its pseudonym, stays where it stopped', async () => {
    const client = '198.51.100.10'
    for (let search = 0; search < BUDGET + 10; search += 1) await searchFrom(servers.first, client)
    const { database } = servers.second
    const pseudonymOf = pseudonymizer(await siteSecret(database, SITE_SECRETS.pseudonymKey))
    const row = await database.db
      .selectFrom('rate_limit')
      .select('count')
      .where('key', '=', `${pseudonymOf(client)}:${SEARCH_GROUP}`)
      .executeTakeFirst()
    expect(Number(row?.count)).toBe(BUDGET)
  })
})

describe('an app with a search budget', () => {
  it('lets the search run (fail open) and logs why when the budget cannot be counted', async () => {
    const log = logCapture()
    const server = await composeTestServer(
      { SEARCH_RATE_LIMIT: '1' },
      { logger: { level: 'warn', stream: log.stream } },
    )
    try {
      await sql`drop table rate_limit`.execute(server.database.db)
      const statuses = [
        (await searchFrom(server, '192.0.2.1')).statusCode,
        (await searchFrom(server, '192.0.2.1')).statusCode,
      ]
      expect(statuses).toEqual([200, 200])
      expect(log.lines().map((line) => line.msg)).toContain(
        'search not counted against the search budget',
      )
    } finally {
      await server.close()
    }
  })
})
