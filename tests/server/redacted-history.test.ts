import { JSDOM } from 'jsdom'
import { OperatorTools } from '@/application/operator-tools'
import { SqlModerationStore } from '@/adapters/sql/moderation.store'
import type { ComposedServer } from '@/composition/server/server.composition'
import type { NewsItem } from '@/domain/news-item.entity'
import * as renderer from '@/ui/app/server-render'
import { composeTestServer, JSON_HEADERS, templateDistDir } from './server-fixture'

/** A post's history page, as a browser without JavaScript gets it, once a version was redacted. */
describe('the history of a post with a version the operator hid', () => {
  let server: ComposedServer
  let post: NewsItem

  beforeAll(async () => {
    server = await composeTestServer({}, { distDir: templateDistDir(), renderer })
    const write = (method: string, url: string, payload: object) =>
      server.app.inject({ method: method as 'POST', url, headers: JSON_HEADERS, payload })
    post = (
      await write('POST', '/api/news', { title: 'Libel here', body: 'Lies.', author: 'Troll' })
    ).json<NewsItem>()
    await write('PATCH', `/api/news/${post._id}`, {
      title: 'Harbour',
      body: 'Opens.',
      author: 'Ada',
    })
    await write('PATCH', `/api/news/${post._id}`, { body: 'Opens today.' })
    const tools = new OperatorTools(new SqlModerationStore(server.database), { operator: 'test' })
    expect((await tools.redact(post._id, 1, 'libel')).ok).toBe(true)
  })

  afterAll(async () => {
    await server.close()
  })

  async function versions() {
    const response = await server.app.inject(`/news/${post._id}/history`)
    expect(response.statusCode).toBe(200)
    const { document } = new JSDOM(response.body).window
    return [...document.querySelectorAll('#root main li.history-version')].map((version) => ({
      text: version.textContent ?? '',
      restore: version.querySelector('button')?.textContent ?? undefined,
    }))
  }

  it('says the hidden version’s text was hidden, shows none of it, and offers no restore of it', async () => {
    const [newest, middle, first] = await versions()
    expect(first?.text).toContain('Its title, body and author were hidden by the operator.')
    expect(first?.text).not.toMatch(/Libel|Lies|Troll/)
    expect(first?.restore).toBeUndefined()
    // The version after it shows its whole text, as a first version does, not a diff with ''.
    expect(middle?.text).toContain('Harbour')
    expect(middle?.restore).toBe('Restore this version')
    expect(newest?.text).toContain('(current)')
  })
})
