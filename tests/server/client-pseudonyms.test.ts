import type { ComposedServer } from '@/composition/server/server.composition'
import { PSEUDONYM_LENGTH, pseudonymizer, withClientPrivacy } from '@/server/services/pseudonyms'
import { composeTestServer, logCapture, describeOnDatabases, useDatabase } from './server-fixture'

const PSEUDONYM = new RegExp(`^[0-9a-f]{${PSEUDONYM_LENGTH}}$`)

describe('pseudonyms of client addresses', () => {
  const pseudonymOf = pseudonymizer(Buffer.alloc(32, 7))

  it('are the same for one address, and differ between addresses', () => {
    expect(pseudonymOf('203.0.113.7')).toMatch(PSEUDONYM)
    expect(pseudonymOf('203.0.113.7')).toBe(pseudonymOf('203.0.113.7'))
    expect(pseudonymOf('203.0.113.7')).not.toBe(pseudonymOf('203.0.113.8'))
  })

  it('count an IPv4 address whole, also written as IPv6, and an IPv6 address by its /64', () => {
    expect(pseudonymOf('::ffff:203.0.113.7')).toBe(pseudonymOf('203.0.113.7'))
    expect(pseudonymOf('2001:db8:1:2::9')).toBe(pseudonymOf('2001:db8:1:2:aaaa::1'))
    expect(pseudonymOf('2001:db8:1:2::9')).not.toBe(pseudonymOf('2001:db8:1:3::9'))
  })

  it('name a client whose socket has closed, and whose address Node has forgotten, unknown', () => {
    expect(pseudonymOf(undefined)).toBe('unknown')
    // The log line of an answer that finished after its client went away: the serializer runs
    // outside any request's error handling, so a throw there would end the process.
    const logger = withClientPrivacy(true, pseudonymOf, false) as {
      serializers: { req: (request: unknown) => unknown }
    }
    const gone = { method: 'GET', url: '/', host: 'news.example.com', ip: undefined, socket: null }
    expect(logger.serializers.req(gone)).toEqual({
      method: 'GET',
      url: '/',
      host: 'news.example.com',
      client: 'unknown',
    })
  })

  it('depend on the key, so that no one without it can tell an address from its pseudonym', () => {
    expect(pseudonymizer(Buffer.alloc(32, 8))('203.0.113.7')).not.toBe(pseudonymOf('203.0.113.7'))
  })
})

describeOnDatabases('request logs on $name', (kind) => {
  const database = useDatabase(kind)
  const servers: ComposedServer[] = []
  afterAll(() => Promise.all(servers.map((server) => server.close())))

  /** A server on the suite's database, behind a pretend proxy, with its log lines. */
  async function serverOnTheDatabase(env: Record<string, string> = {}) {
    const log = logCapture()
    const server = await composeTestServer(
      { DATABASE_URL: database.url, TRUST_PROXY: '1', ...env },
      { logger: { level: 'info', stream: log.stream } },
    )
    servers.push(server)
    const clientOf = async (address: string): Promise<Record<string, unknown>> => {
      const response = await server.app.inject({
        url: '/api/news',
        headers: { 'x-forwarded-for': address },
      })
      const line = log.lines().find((each) => each.reqId === response.headers['x-request-id'])
      return (line?.req ?? {}) as Record<string, unknown>
    }
    return { clientOf, lines: log.lines }
  }

  it('name the client by the same pseudonym on every server of the site, never by its address', async () => {
    const a = await serverOnTheDatabase()
    const b = await serverOnTheDatabase()
    const onA = await a.clientOf('198.51.100.23')
    const onB = await b.clientOf('198.51.100.23')
    const other = await b.clientOf('198.51.100.24')

    expect(onA.client).toMatch(PSEUDONYM)
    expect(onB.client).toBe(onA.client)
    expect(other.client).toMatch(PSEUDONYM)
    expect(other.client).not.toBe(onA.client)
    const written = JSON.stringify([...a.lines(), ...b.lines()])
    expect(written).not.toContain('198.51.100.')
    expect(onA).not.toHaveProperty('remoteAddress')
  })

  it('write the address itself, with its port, when LOG_ADDRESSES is set', async () => {
    const server = await serverOnTheDatabase({ LOG_ADDRESSES: '1' })
    const req = await server.clientOf('198.51.100.23')
    expect(req.remoteAddress).toBe('198.51.100.23')
    expect(req).not.toHaveProperty('client')
  })
})

describe('the pseudonym key', () => {
  it('is made per site: two sites give one address different pseudonyms', async () => {
    const pseudonyms: unknown[] = []
    for (const site of [1, 2]) {
      const log = logCapture()
      const server = await composeTestServer(
        { TRUST_PROXY: '1' },
        { logger: { level: 'info', stream: log.stream } },
      )
      const response = await server.app.inject({
        url: '/api/news',
        headers: { 'x-forwarded-for': '198.51.100.23' },
      })
      const line = log.lines().find((each) => each.reqId === response.headers['x-request-id'])
      pseudonyms.push((line?.req as Record<string, unknown> | undefined)?.client)
      await server.close()
      expect(pseudonyms[site - 1]).toMatch(PSEUDONYM)
    }
    expect(pseudonyms[0]).not.toBe(pseudonyms[1])
  })
})
