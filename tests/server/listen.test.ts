import type { AddressInfo } from 'node:net'
import type { NewsItem } from '@/domain/news-item.entity'
import { fakeDistDir, useServer } from './server-fixture'

const { server } = useServer({
  env: { WRITE_RATE_LIMIT: '60' },
  options: { distDir: fakeDistDir() },
})
let base: string

beforeAll(async () => {
  await server.app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`
})

describe('over a real socket', () => {
  it('creates, reads, edits, pages and deletes posts with fetch', async () => {
    const ids: string[] = []
    for (const title of ['One', 'Two', 'Three']) {
      const created = await fetch(`${base}/api/news`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title, body: `${title}.`, author: 'Ada' }),
      })
      expect(created.status).toBe(201)
      const location = created.headers.get('location')
      const item = (await created.json()) as NewsItem
      expect(location).toBe(`/api/news/${item._id}`)
      ids.unshift(item._id)
      // Posts are dated to the millisecond; a pause keeps 'newest first' unambiguous.
      await new Promise((resolve) => setTimeout(resolve, 2))
    }

    const first = await fetch(`${base}/api/news?limit=2`)
    expect(first.status).toBe(200)
    const next = first.headers.get('link')?.match(/^<([^>]+)>; rel="next"$/)?.[1]
    expect(next).toBeDefined()
    const second = await fetch(`${base}${next}`)
    const pages = [
      ...((await first.json()) as NewsItem[]),
      ...((await second.json()) as NewsItem[]),
    ]
    expect(pages.map((item) => item._id)).toEqual(ids)
    expect(second.headers.get('link')).toBeNull()

    const edited = await fetch(`${base}/api/news/${ids[0]}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Three, edited' }),
    })
    expect(((await edited.json()) as NewsItem).title).toBe('Three, edited')

    const deleted = await fetch(`${base}/api/news/${ids[0]}`, { method: 'DELETE' })
    expect(deleted.status).toBe(204)
    expect((await fetch(`${base}/api/news/${ids[0]}`)).status).toBe(404)
  })

  it('serves the app compressed to a browser-like client', async () => {
    // fetch asks for gzip, deflate and br, and decompresses for us.
    const response = await fetch(`${base}/news/some-id`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await response.text()).toContain('<div id="root">')
  })

  it('answers problems as application/problem+json', async () => {
    const response = await fetch(`${base}/api/news`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    })
    expect(response.status).toBe(400)
    expect(response.headers.get('content-type')).toBe('application/problem+json; charset=utf-8')
    expect(await response.json()).toMatchObject({ status: 400, title: 'Bad Request' })
  })
})
