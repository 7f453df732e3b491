import type { NewsItem } from '@/domain/news-item.entity'
import type { ComposedServer } from '@/composition/server/server.composition'
import { OUTBOX_IDS } from '@/server/services/server-config'
import { JSON_HEADERS, describeOnDatabases } from './server-fixture'
import { proxiedServers, sendFrom as send } from './support/proxied-servers'
import { CLI_TIMEOUT, news } from './support/news-command'

const VANDAL = '203.0.113.7'
const NEIGHBOUR = '203.0.113.99'
const VISITOR = '198.51.100.23'

/**
 * The operator's blocks and protections, made with the real CLI on the database two servers
 * share, hold on both servers from the command's end; the visitors come through a proxy, which
 * names each one's address.
 */
describeOnDatabases('the operator’s blocks and protections on $name', (kind) => {
  const servers = proxiedServers(kind)

  async function publish(from = VISITOR): Promise<NewsItem> {
    const created = await send(servers.a, from, 'POST', '/api/news', {
      title: 'Harbour',
      body: 'Opens.',
      author: 'Ada',
    })
    expect(created.statusCode).toBe(201)
    return created.json<NewsItem>()
  }

  async function operator(...args: string[]): Promise<string> {
    const outcome = await news(servers.database.url, ...args)
    expect(outcome.code, outcome.stderr).toBe(0)
    return outcome.stdout
  }

  function sendForm(server: ComposedServer, from: string) {
    const boundary = 'newswire-test-form'
    const fields = {
      service_id: OUTBOX_IDS.serviceId,
      template_id: OUTBOX_IDS.templateId,
      user_id: OUTBOX_IDS.publicKey,
      name: 'Ada',
      email: 'ada@example.com',
      message: 'Hello there, newsroom.',
    }
    const payload =
      Object.entries(fields)
        .map(
          ([name, value]) =>
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
        )
        .join('') + `--${boundary}--\r\n`
    return server.app.inject({
      method: 'POST',
      url: '/api/v1.0/email/send-form',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        origin: 'http://localhost:80',
        host: 'localhost:80',
        'x-forwarded-for': from,
      },
      payload,
    })
  }

  it(
    'refuses every write of a blocked editor on both servers with the reason and end, and keeps its reads',
    async () => {
      const { a, b } = servers
      const post = await publish()
      const pseudonym = (await operator('who', VANDAL)).trim()
      const said = await operator('block', pseudonym, '--for', '2h', '--reason', 'spam wave')
      expect(said).toMatch(/^Blocked editor [0-9a-f]{10} until \S+Z \(block [0-9a-f]+\)\.$/m)

      const writes = [
        () => send(a, VANDAL, 'POST', '/api/news', { title: 'Spam', body: 'Buy.', author: 'X' }),
        () => send(b, VANDAL, 'PATCH', `/api/news/${post._id}`, { title: 'Spam' }),
        () => send(a, VANDAL, 'DELETE', `/api/news/${post._id}`),
        () => send(b, VANDAL, 'POST', `/api/news/${post._id}/revisions/1/restore`),
        () => sendForm(b, VANDAL),
      ]
      for (const write of writes) {
        const refused = await write()
        expect(refused.statusCode).toBe(403)
        expect(refused.headers['content-type']).toBe('application/problem+json; charset=utf-8')
        const problem = refused.json<{ type: string; reason: string; until: string }>()
        expect(problem).toMatchObject({
          type: '/problems/blocked',
          status: 403,
          reason: 'spam wave',
        })
        const hoursLeft = (Date.parse(problem.until) - Date.now()) / 3_600_000
        expect(hoursLeft).toBeGreaterThan(1.9)
        expect(hoursLeft).toBeLessThanOrEqual(2)
      }
      // Nothing the blocked client sent was stored; its reads still work; others still write.
      expect((await send(b, VANDAL, 'GET', `/api/news/${post._id}`)).json()).toMatchObject({
        title: 'Harbour',
        revision: 1,
      })
      expect((await send(a, VANDAL, 'GET', '/api/news')).json()).toHaveLength(1)
      expect(
        (await send(b, VISITOR, 'PATCH', `/api/news/${post._id}`, { body: 'Opens today.' }))
          .statusCode,
      ).toBe(200)

      expect(await operator('unblock', pseudonym)).toMatch(/^Lifted 1 block\(s\)/m)
      expect(
        (await send(a, VANDAL, 'PATCH', `/api/news/${post._id}`, { body: 'Opens at dawn.' }))
          .statusCode,
      ).toBe(200)
    },
    CLI_TIMEOUT * 3,
  )

  it(
    'refuses every address in a blocked range, with no reason when none was given',
    async () => {
      const { a, b } = servers
      await operator('block', '203.0.113.0/24')
      for (const from of [VANDAL, NEIGHBOUR]) {
        const refused = await send(b, from, 'POST', '/api/news', {
          title: 'Spam',
          body: 'Buy.',
          author: 'X',
        })
        expect(refused.statusCode).toBe(403)
        expect(refused.json()).toMatchObject({ type: '/problems/blocked', reason: '', until: null })
        expect(refused.json<{ detail: string }>().detail).toBe(
          'The operator blocked writes from your address until the operator lifts it.',
        )
      }
      expect(
        (await send(a, VISITOR, 'POST', '/api/news', { title: 'T', body: 'B', author: 'A' }))
          .statusCode,
      ).toBe(201)
    },
    CLI_TIMEOUT * 2,
  )

  it(
    'lets only the operator change a protected post, which says so on both servers',
    async () => {
      const { a, b } = servers
      const post = await publish()
      expect(await operator('protect', post._id, '--reason', 'edit war')).toContain(post._id)

      for (const server of [a, b]) {
        const read = await send(server, VISITOR, 'GET', `/api/news/${post._id}`)
        expect(read.json()).toMatchObject({ _id: post._id, protected: true, revision: 1 })
        expect(read.headers.etag).toBe('"rev-1-p"')
      }
      const writes = [
        () => send(a, VISITOR, 'PATCH', `/api/news/${post._id}`, { title: 'Vandalised' }),
        () => send(b, VISITOR, 'DELETE', `/api/news/${post._id}`),
        () => send(a, VISITOR, 'POST', `/api/news/${post._id}/revisions/1/restore`),
      ]
      for (const write of writes) {
        const refused = await write()
        expect(refused.statusCode).toBe(403)
        expect(refused.json()).toMatchObject({
          type: '/problems/protected',
          status: 403,
          detail: 'The operator protected this post: only the operator may change it.',
        })
      }
      // The page a reader opens shows the protection too: the cached one is renewed.
      expect(
        (await send(b, VISITOR, 'GET', `/api/news/${post._id}/revisions`)).json(),
      ).toHaveLength(1)

      await operator('unprotect', post._id)
      const read = await send(b, VISITOR, 'GET', `/api/news/${post._id}`)
      expect(read.json()).not.toHaveProperty('protected')
      expect(read.headers.etag).toBe('"rev-1"')
      // A client that still holds the protected post's tag writes as to revision 1.
      const edited = await a.app.inject({
        method: 'PATCH',
        url: `/api/news/${post._id}`,
        headers: { ...JSON_HEADERS, 'if-match': '"rev-1-p"', 'x-forwarded-for': VISITOR },
        payload: { title: 'Harbour at dawn' },
      })
      expect(edited.statusCode).toBe(200)
    },
    CLI_TIMEOUT * 3,
  )

  it(
    'keeps a protected post in the trash there for visitors',
    async () => {
      const { a, b } = servers
      const post = await publish()
      expect((await send(a, VISITOR, 'DELETE', `/api/news/${post._id}`)).statusCode).toBe(204)
      await operator('protect', post._id)
      const restore = await send(b, VISITOR, 'POST', `/api/news/${post._id}/restore`)
      expect(restore.statusCode).toBe(403)
      expect(restore.json()).toMatchObject({ type: '/problems/protected' })
    },
    CLI_TIMEOUT * 2,
  )
})

/**
 * The spam budget: CREATE_RATE_LIMIT new posts an hour per client, counted in the database both
 * servers share, beside the write budget, and kept under the client's pseudonym.
 */
describeOnDatabases('the budget of new posts on $name', (kind) => {
  const servers = proxiedServers(kind, { CREATE_RATE_LIMIT: '2', WRITE_RATE_LIMIT: '60' })

  function create(server: ComposedServer, from: string, title: string) {
    return send(server, from, 'POST', '/api/news', { title, body: 'Body.', author: 'Ada' })
  }

  it('refuses a client’s third new post in the hour on either server, and says when to try again', async () => {
    const { a, b } = servers
    const first = await create(a, VANDAL, 'One')
    expect(first.statusCode).toBe(201)
    expect((await create(b, VANDAL, 'Two')).statusCode).toBe(201)
    const refused = await create(a, VANDAL, 'Three')
    expect(refused.statusCode).toBe(429)
    const retryAfter = Number(refused.headers['retry-after'])
    expect(retryAfter).toBeGreaterThan(3_000)
    expect(retryAfter).toBeLessThanOrEqual(3_600)
    expect(refused.json()).toMatchObject({ status: 429 })

    // Other clients have their own budget; edits draw on the write budget only.
    expect((await create(b, VISITOR, 'Elsewhere')).statusCode).toBe(201)
    const { _id } = first.json<NewsItem>()
    const edit = await b.app.inject({
      method: 'PATCH',
      url: `/api/news/${_id}`,
      headers: { ...JSON_HEADERS, 'x-forwarded-for': VANDAL },
      payload: { body: 'Still editing.' },
    })
    expect(edit.statusCode).toBe(200)
    expect((await a.app.inject('/api/news')).json()).toHaveLength(3)
  })

  it(
    'answers a blocked client with the block, never the budget, and spends none of it',
    async () => {
      const { a, b, database } = servers
      const operator = async (...args: string[]) => {
        const outcome = await news(database.url, ...args)
        expect(outcome.code, outcome.stderr).toBe(0)
        return outcome.stdout
      }
      const pseudonym = (await operator('who', VANDAL)).trim()
      await operator('block', pseudonym)
      for (const server of [a, b, a]) {
        expect((await create(server, VANDAL, 'Spam')).statusCode).toBe(403)
      }
      await operator('unblock', pseudonym)
      expect((await create(a, VANDAL, 'One')).statusCode).toBe(201)
      expect((await create(b, VANDAL, 'Two')).statusCode).toBe(201)
      // Spent: blocked again, the client is told of the block, not of the budget.
      await operator('block', pseudonym)
      const refused = await create(a, VANDAL, 'Three')
      expect(refused.statusCode).toBe(403)
      expect(refused.json()).toMatchObject({ type: '/problems/blocked' })
      await operator('unblock', pseudonym)
      expect((await create(b, VANDAL, 'Three')).statusCode).toBe(429)
    },
    CLI_TIMEOUT * 5,
  )

  it('gives the unit back for a post refused as invalid', async () => {
    const { a, b } = servers
    expect((await create(a, VANDAL, '')).statusCode).toBe(422)
    expect((await create(b, VANDAL, 'One')).statusCode).toBe(201)
    expect((await create(a, VANDAL, 'Two')).statusCode).toBe(201)
    expect((await create(a, VANDAL, 'Three')).statusCode).toBe(429)
  })

  it('counts under the client’s pseudonym, never its address', async () => {
    const { a } = servers
    await create(a, VANDAL, 'One')
    const keys = await a.database.db.selectFrom('rate_limit').select('key').execute()
    expect(keys.length).toBeGreaterThan(0)
    for (const { key } of keys) {
      expect(key).not.toContain(VANDAL)
      expect(key).toMatch(/^[0-9a-f]{10}:(writes|creates)$/)
    }
  })
})
