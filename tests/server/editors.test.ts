import { readFileSync } from 'node:fs'
import type { NewsItem } from '@/domain/news-item.entity'
import type { NewsRevision } from '@/domain/news-revision.entity'
import type { ComposedServer } from '@/composition/server/server.composition'
import { describeOnDatabases } from './server-fixture'
import { proxiedServers, sendFrom as send } from './support/proxied-servers'
import { news } from './support/news-command'

const ALICE = '203.0.113.7'
const BOB = '198.51.100.23'

/**
 * Two servers behind one proxy, which passes each visitor's address on: every write records its
 * editor, the pseudonym of the address it came from, the same on both servers.
 */
describeOnDatabases('the editor of each revision on $name', (kind) => {
  // Every budget on, so that its rows are among what the site keeps.
  const servers = proxiedServers(kind, {
    WRITE_RATE_LIMIT: '60',
    CREATE_RATE_LIMIT: '10',
    SEARCH_RATE_LIMIT: '30',
  })

  async function editors(server: ComposedServer, id: string): Promise<string[]> {
    const answer = await server.app.inject(`/api/news/${id}/revisions`)
    expect(answer.statusCode).toBe(200)
    return answer.json<NewsRevision[]>().map((revision) => revision.editor)
  }

  it('is the pseudonym of the client’s address, the same on every server and for the CLI', async () => {
    const { a, b, database } = servers
    const post = (
      await send(a, ALICE, 'POST', '/api/news', { title: 'Harbour', body: 'Opens.', author: 'Ada' })
    ).json<NewsItem>()
    expect(
      (await send(b, BOB, 'PATCH', `/api/news/${post._id}`, { body: 'Opens today.' })).statusCode,
    ).toBe(200)
    expect((await send(b, ALICE, 'DELETE', `/api/news/${post._id}`)).statusCode).toBe(204)
    expect((await send(a, BOB, 'POST', `/api/news/${post._id}/restore`)).statusCode).toBe(200)

    const [restoredBy, deletedBy, editedBy, createdBy] = await editors(a, post._id)
    const who = await news(database.url, 'who', ALICE)
    expect(who.code, who.stderr).toBe(0)
    expect(createdBy).toBe(who.stdout.trim())
    expect(deletedBy).toBe(createdBy)
    expect(editedBy).not.toBe(createdBy)
    expect(restoredBy).toBe(editedBy)
    expect(await editors(b, post._id)).toEqual(await editors(a, post._id))
    expect(createdBy).toMatch(/^[0-9a-f]{10}$/)
  })

  it('never stores the address itself, nor counts a budget under it', async () => {
    const { a, b, database } = servers
    const post = (
      await send(a, ALICE, 'POST', '/api/news', { title: 'Harbour', body: 'Opens.', author: 'Ada' })
    ).json<NewsItem>()
    await send(b, BOB, 'PATCH', `/api/news/${post._id}`, { title: 'Harbour at dawn' })
    await send(a, BOB, 'GET', '/api/news?q=harbour')
    const budgets = await b.database.db.selectFrom('rate_limit').select('key').execute()
    expect(budgets.map(({ key }) => key.split(':')[1]).sort()).toEqual([
      'creates',
      'searches',
      'writes',
      'writes',
    ])
    expect(JSON.stringify(budgets)).not.toMatch(/203\.0\.113\.7|198\.51\.100\.23/)

    // Everything the site keeps, as the operator's export writes it, and the SQLite file itself.
    const exported = await news(database.url, 'export')
    expect(exported.code, exported.stderr).toBe(0)
    expect(exported.stdout).toContain('Harbour at dawn')
    expect(exported.stdout).not.toContain(ALICE)
    expect(exported.stdout).not.toContain(BOB)
    if (database.url.startsWith('sqlite:')) {
      const file = readFileSync(database.url.slice('sqlite:'.length)).toString('latin1')
      expect(file).not.toContain(ALICE)
      expect(file).not.toContain(BOB)
    }
  })
})
