import { JSDOM } from 'jsdom'
import type { PageData } from '@/application/page-data'
import type { NewsItem } from '@/domain/news-item.entity'
import * as renderer from '@/ui/app/server-render'
import {
  createPostThroughApi,
  templateDistDir,
  describeOnDatabases,
  useDatabase,
  useServer,
} from './server-fixture'

/*
 * The pages of the paged lists (/, a search, the trash, a history) and the address of a post in
 * the trash, as a browser without JavaScript or a crawler gets them: rendered, each with a real
 * link to its next page, which renders that page; on both engines.
 */

const LIST_PAGE = 24
const HISTORY_PAGE = 50

/** Posts are dated to the millisecond; a pause keeps 'newest first' unambiguous. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 3))

describeOnDatabases('server-rendered paged pages on $name', (kind) => {
  const database = useDatabase(kind)
  const { server } = useServer({ database, options: { distDir: templateDistDir(), renderer } })
  /** Newest first, as the list shows them. */
  let live: NewsItem[] = []
  /** Newest deletion first, as the trash shows them. */
  let trashed: NewsItem[] = []
  let edited: NewsItem

  beforeAll(async () => {
    const made: NewsItem[] = []
    for (let n = 1; n <= LIST_PAGE + 6; n += 1) {
      made.push(await createPostThroughApi(server, `Harbour report ${n}`))
      await tick()
    }
    live = made.reverse()
    const doomed: NewsItem[] = []
    for (let n = 1; n <= LIST_PAGE + 2; n += 1) {
      const item = await createPostThroughApi(server, `Gone report ${n}`)
      expect((await remove(item._id)).statusCode).toBe(204)
      doomed.push(item)
      await tick()
    }
    trashed = doomed.reverse()
    edited = await createPostThroughApi(server, 'Edited many times')
    for (let version = 2; version <= HISTORY_PAGE + 5; version += 1) {
      const response = await server.app.inject({
        method: 'PATCH',
        url: `/api/news/${edited._id}`,
        headers: { 'content-type': 'application/json' },
        payload: { title: `Edited many times, version ${version}` },
      })
      expect(response.statusCode).toBe(200)
      edited = response.json<NewsItem>()
    }
    live = [edited, ...live]
  }, 120_000)

  function remove(id: string) {
    return server.app.inject({ method: 'DELETE', url: `/api/news/${id}` })
  }

  async function page(url: string) {
    const response = await server.app.inject({ url })
    const { document } = new JSDOM(response.body).window
    const text = document.getElementById(renderer.PAGE_DATA_ID)?.textContent
    const next = document.querySelector<HTMLAnchorElement>('#root main a[rel="next"]')
    return {
      response,
      document,
      data: text === undefined || text === null ? undefined : (JSON.parse(text) as PageData),
      next: next?.getAttribute('href') ?? undefined,
      nextText: next?.textContent,
      /**
       * The texts of `selector` in reading order: in the news grid (react-masonry-css, column by
       * column in the page), the order its feed owns its cards in.
       */
      texts: (selector: string) => {
        const owned = document.querySelector('#root main [role="feed"]')?.getAttribute('aria-owns')
        const nodes =
          owned === null || owned === undefined
            ? [...document.querySelectorAll(`#root main ${selector}`)]
            : owned.split(' ').map((id) => document.getElementById(id)?.querySelector('h2'))
        return nodes.map((node) => node?.textContent ?? null)
      },
    }
  }

  it('renders / with a real link to the next page, which renders the older posts', async () => {
    const first = await page('/')
    expect(first.response.statusCode).toBe(200)
    expect(first.texts('article h2')).toEqual(live.slice(0, LIST_PAGE).map((item) => item.title))
    expect(first.next).toMatch(/^\/\?cursor=[\w-]+$/)
    expect(first.nextText).toBe('Next page')

    const second = await page(first.next ?? '')
    expect(second.response.statusCode).toBe(200)
    expect(second.texts('article h2')).toEqual(live.slice(LIST_PAGE).map((item) => item.title))
    expect(second.document.querySelector('link[rel="canonical"]')?.getAttribute('href')).toMatch(
      /\/\?cursor=[\w-]+$/,
    )
    expect(second.next).toBeUndefined()
    // The app starts from this very page, and knows which one it is.
    expect(second.data?.cursor).toBe(new URLSearchParams(first.next?.slice(1)).get('cursor'))
    expect(second.data?.home?.items.map((item) => item._id)).toEqual(
      live.slice(LIST_PAGE).map((item) => item._id),
    )
  })

  it('renders a search page by page, the query kept in the next-page link', async () => {
    const first = await page('/search?q=harbour')
    expect(first.texts('article h2')).toHaveLength(LIST_PAGE)
    const next = new URL(first.next ?? '', 'http://x')
    expect(next.pathname).toBe('/search')
    expect(next.searchParams.get('q')).toBe('harbour')

    const second = await page(first.next ?? '')
    expect(second.response.statusCode).toBe(200)
    expect(second.texts('article h2')).toHaveLength(6)
    const all = [...first.texts('article h2'), ...second.texts('article h2')]
    expect(new Set(all).size).toBe(LIST_PAGE + 6)
    expect(second.next).toBeUndefined()
  })

  it('renders the trash, newest deletion first, with Restore and a link to its next page', async () => {
    const first = await page('/trash')
    expect(first.response.statusCode).toBe(200)
    expect(first.document.querySelector('#root h1')?.textContent).toBe('Recently deleted')
    expect(first.texts('.trash-item h2')).toEqual(
      trashed.slice(0, LIST_PAGE).map((item) => item.title),
    )
    expect(first.texts('button')).toContain(`Restore ${trashed[0]?.title}`)
    expect(first.next).toMatch(/^\/trash\?cursor=[\w-]+$/)

    const second = await page(first.next ?? '')
    expect(second.texts('.trash-item h2')).toEqual(
      trashed.slice(LIST_PAGE).map((item) => item.title),
    )
    expect(second.next).toBeUndefined()
  })

  it("renders a post's history, the older versions behind its next-page link", async () => {
    const first = await page(`/news/${edited._id}/history`)
    expect(first.response.statusCode).toBe(200)
    expect(first.document.querySelector('#root h1')?.textContent).toBe(
      `History of “Edited many times, version ${HISTORY_PAGE + 5}”`,
    )
    expect(first.texts('.history-version h2')).toHaveLength(HISTORY_PAGE)
    expect(first.next).toMatch(new RegExp(`^/news/${edited._id}/history\\?cursor=[\\w-]+$`))

    const second = await page(first.next ?? '')
    expect(second.response.statusCode).toBe(200)
    expect(second.texts('.history-version h2').map((title) => title?.split(':')[0])).toEqual([
      'Version 5',
      'Version 4',
      'Version 3',
      'Version 2',
      'Version 1',
    ])
    expect(second.next).toBeUndefined()
  })

  it('answers 404 for the history of a post that never existed', async () => {
    const missing = await page('/news/no-such-post/history')
    expect(missing.response.statusCode).toBe(404)
    expect(missing.document.querySelector('#root h1')?.textContent).toBe('Page not available')
  })

  it.each(['/', '/trash', '/search?q=harbour', '/news/ID/history'])(
    'leads a cursor that names no page of %s to its first page',
    async (path) => {
      const address = path.replace('ID', edited._id)
      const joiner = address.includes('?') ? '&' : '?'
      const response = await server.app.inject({ url: `${address}${joiner}cursor=not-a-page` })
      expect(response.statusCode).toBe(302)
      expect(response.headers.location).toBe(address)
    },
  )

  it('answers 410 at the address of a post in the trash, with a page that says where it is', async () => {
    const [post] = trashed
    if (post === undefined) throw new Error('no trashed post')

    const gone = await page(`/news/${post._id}`)

    expect(gone.response.statusCode).toBe(410)
    expect(gone.document.title).toBe('Deleted post | NewsWire')
    expect(gone.document.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe(
      'noindex',
    )
    expect(gone.document.querySelector('#root h1')?.textContent).toBe('This post was deleted')
    expect(gone.document.querySelector('#root main')?.textContent).toContain(
      `“${post.title}” is in Recently deleted, where it can be restored.`,
    )
    expect(gone.document.querySelector('#root main')?.textContent).not.toContain('not available')
    const link = [...gone.document.querySelectorAll('#root main a')].find(
      (anchor) => anchor.textContent === 'See it in Recently deleted',
    )
    expect(link?.getAttribute('href')).toBe(`/trash#trash-${post._id}-title`)
    expect(gone.data?.item).toMatchObject({ id: post._id, item: null, trashed: { _id: post._id } })
  })

  it('answers a read of a post in the trash through the API with 404, naming the post', async () => {
    const [post] = trashed
    if (post === undefined) throw new Error('no trashed post')

    const response = await server.app.inject({ url: `/api/news/${post._id}` })

    expect(response.statusCode).toBe(404)
    expect(response.json()).toMatchObject({
      status: 404,
      trashed: { _id: post._id, title: post.title },
    })
    expect(response.json<{ trashed: { deletedAt: string } }>().trashed.deletedAt).toMatch(/Z$/)
  })
})
