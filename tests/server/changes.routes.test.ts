import type { NewsItem } from '@/domain/news-item.entity'
import type { RecentChange } from '@/domain/news-change.entity'
import { INVALID_EDITOR_MESSAGE } from '@/domain/editor'
import type { ComposedServer } from '@/composition/server/server.composition'
import { describeOnDatabases } from './server-fixture'
import { proxiedServers, sendFrom as send } from './support/proxied-servers'
import { news } from './support/news-command'

const ALICE = '127.0.0.2'
const BOB = '127.0.0.3'

/**
 * GET /api/changes on two servers over one database, behind a proxy that passes each visitor's
 * address on: every change made through either server (or the operator's commands) is listed
 * by both, newest first, with the editor who made it.
 */
describeOnDatabases('GET /api/changes on $name', (kind) => {
  const servers = proxiedServers(kind)

  async function create(server: ComposedServer, from: string, title: string): Promise<NewsItem> {
    const answer = await send(server, from, 'POST', '/api/news', {
      title,
      body: 'Text.',
      author: 'Ada',
    })
    expect(answer.statusCode).toBe(201)
    return answer.json<NewsItem>()
  }

  async function changes(server: ComposedServer, query = '') {
    const answer = await server.app.inject(`/api/changes${query}`)
    expect(answer.statusCode, answer.body).toBe(200)
    return { items: answer.json<RecentChange[]>(), link: answer.headers.link as string | undefined }
  }

  async function pseudonymOf(address: string): Promise<string> {
    const who = await news(servers.database.url, 'who', address)
    expect(who.code, who.stderr).toBe(0)
    return who.stdout.trim()
  }

  it('lists every change made through either server, newest first, with its editor and title', async () => {
    const { a, b } = servers
    const post = await create(a, ALICE, 'Harbour reopens')
    const edit = await send(b, BOB, 'PATCH', `/api/news/${post._id}`, { title: 'Harbour shut' })
    expect(edit.statusCode).toBe(200)
    expect((await send(b, ALICE, 'DELETE', `/api/news/${post._id}`)).statusCode).toBe(204)

    const [alice, bob] = [await pseudonymOf(ALICE), await pseudonymOf(BOB)]
    const fromA = await changes(a)
    expect(fromA.link).toBeUndefined()
    expect(
      fromA.items.map(({ kind, revision, editor, title }) => [kind, revision, editor, title]),
    ).toEqual([
      ['deleted', 3, alice, 'Harbour shut'],
      ['edited', 2, bob, 'Harbour shut'],
      ['created', 1, alice, 'Harbour reopens'],
    ])
    expect(fromA.items.every((change) => change.id === post._id)).toBe(true)
    expect((await changes(b)).items).toEqual(fromA.items)
  })

  it('lists one editor’s changes, and pages with a Link that keeps the editor', async () => {
    const { a, b } = servers
    for (let index = 0; index < 5; index += 1) {
      await create(index % 2 === 0 ? a : b, index % 2 === 0 ? ALICE : BOB, `Post ${index}`)
    }
    const alice = await pseudonymOf(ALICE)
    const first = await changes(b, `?editor=${alice}&limit=2`)
    expect(first.items.map((change) => change.title)).toEqual(['Post 4', 'Post 2'])
    expect(first.items.every((change) => change.editor === alice)).toBe(true)
    const next = /^<([^>]+)>; rel="next"$/.exec(first.link ?? '')?.[1]
    expect(next).toMatch(new RegExp(`^/api/changes\\?editor=${alice}&limit=2&cursor=`))
    const second = await changes(a, (next ?? '').slice('/api/changes'.length))
    expect(second.items.map((change) => change.title)).toEqual(['Post 0'])
    expect(second.link).toBeUndefined()
  })

  it('names the operator as the editor of a change made with the command line', async () => {
    const { a, b, database } = servers
    const post = await create(a, ALICE, 'Spam')
    const rolledBack = await news(database.url, 'rollback', '--editor', await pseudonymOf(ALICE))
    expect(rolledBack.code, rolledBack.stderr).toBe(0)
    const [newest] = (await changes(b)).items
    expect(newest).toMatchObject({ id: post._id, kind: 'deleted', editor: 'operator' })
    expect((await changes(a, '?editor=operator')).items).toHaveLength(1)
  })

  it('answers 400 for an editor no one can be, a bad limit or a cursor it did not make', async () => {
    const { a } = servers
    await create(a, ALICE, 'Harbour')
    for (const query of ['?editor=127.0.0.2', '?editor=Visitor', '?editor=']) {
      const answer = await a.app.inject(`/api/changes${query}`)
      expect(answer.statusCode, query).toBe(400)
      expect(answer.json()).toMatchObject({ errors: { editor: INVALID_EDITOR_MESSAGE } })
    }
    for (const query of ['?limit=0', '?limit=101', '?limit=x', '?cursor=nope', '?cursor=']) {
      expect((await a.app.inject(`/api/changes${query}`)).statusCode, query).toBe(400)
    }
  })
})
