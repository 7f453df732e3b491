import { JSDOM } from 'jsdom'
import type { PageData } from '@/application/page-data'
import type { ComposedServer } from '@/composition/server/server.composition'
import type { NewsItem } from '@/domain/news-item.entity'
import * as renderer from '@/ui/app/server-render'
import { templateDistDir, describeOnDatabases, useTwoServers } from './server-fixture'
import { sendFrom as send } from './support/proxied-servers'
import { news } from './support/news-command'

/*
 * The recent changes page as a browser without JavaScript gets it: rendered by either of two
 * servers on one database, each change a row with its links, a real link to the next page (the
 * editor kept), on both engines.
 */

const LIST_PAGE = 24
const ALICE = '127.0.0.2'
const BOB = '127.0.0.3'

describeOnDatabases('the server-rendered /changes on $name', (kind) => {
  const { database, a, b } = useTwoServers(kind, {
    env: { TRUST_PROXY: 'loopback' },
    options: { distDir: templateDistDir(), renderer },
  })
  let alice: string
  let bob: string
  let edited: NewsItem
  let spam: NewsItem

  beforeAll(async () => {
    const post = { body: 'Text.', author: 'Ada' }
    for (let n = 1; n <= LIST_PAGE; n += 1) {
      const made = await send(a, ALICE, 'POST', '/api/news', { ...post, title: `Report ${n}` })
      expect(made.statusCode).toBe(201)
    }
    edited = (
      await send(a, ALICE, 'POST', '/api/news', { ...post, title: 'Harbour reopens' })
    ).json<NewsItem>()
    const edit = await send(b, BOB, 'PATCH', `/api/news/${edited._id}`, { title: 'Spam words' })
    expect(edit.statusCode).toBe(200)
    spam = (await send(b, BOB, 'POST', '/api/news', { ...post, title: 'Buy now' })).json<NewsItem>()
    for (const [address, name] of [
      [ALICE, 'alice'],
      [BOB, 'bob'],
    ] as const) {
      const who = await news(database.url, 'who', address)
      expect(who.code, who.stderr).toBe(0)
      if (name === 'alice') alice = who.stdout.trim()
      else bob = who.stdout.trim()
    }
  }, 120_000)

  async function page(server: ComposedServer, url: string) {
    const response = await server.app.inject({ url })
    const { document } = new JSDOM(response.body).window
    const text = document.getElementById(renderer.PAGE_DATA_ID)?.textContent
    const next = document.querySelector<HTMLAnchorElement>('#root main a[rel="next"]')
    const rows = [...document.querySelectorAll('#root main tbody tr')].map((row) => ({
      cells: [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''),
      links: [...row.querySelectorAll('a')].map((link) => link.getAttribute('href')),
      undo: row.querySelector('button')?.textContent ?? undefined,
    }))
    return {
      response,
      document,
      rows,
      data: text === undefined || text === null ? undefined : (JSON.parse(text) as PageData),
      next: next?.getAttribute('href') ?? undefined,
    }
  }

  it('lists the changes made through both servers newest first, each row with its links', async () => {
    const first = await page(b, '/changes')
    expect(first.response.statusCode).toBe(200)
    expect(first.document.querySelector('#root h1')?.textContent).toBe('Recent changes')
    expect(
      [...first.document.querySelectorAll('#root thead th')].map((th) => th.textContent),
    ).toEqual(['Time', 'Change', 'Post', 'By', 'Actions'])
    expect(first.rows).toHaveLength(LIST_PAGE)
    const [created, editedRow, createdEdited] = first.rows
    expect(created?.cells.slice(1, 4)).toEqual(['Created', 'Buy now', `Visitor ${bob}`])
    expect(created?.links).toEqual([
      `/news/${spam._id}`,
      `/changes?editor=${bob}`,
      `/news/${spam._id}/history#version-${spam._id}-1`,
    ])
    expect(created?.cells[0]).toMatch(/^\d{4}\/\d\d\/\d\d \d\d:\d\d UTC$/)
    expect(editedRow?.cells.slice(1, 4)).toEqual(['Edited', 'Spam words', `Visitor ${bob}`])
    expect(editedRow?.links[2]).toBe(`/news/${edited._id}/history#version-${edited._id}-2`)
    // Undo is offered on the newest change of each post only.
    expect(created?.undo).toMatch(/^Undo this change/)
    expect(editedRow?.undo).toMatch(/^Undo this change/)
    expect(createdEdited?.cells.slice(1, 4)).toEqual([
      'Created',
      'Harbour reopens',
      `Visitor ${alice}`,
    ])
    expect(createdEdited?.undo).toBeUndefined()
    expect(first.data?.changes?.page?.items).toHaveLength(LIST_PAGE)
  })

  it('has a real link to the next page, which renders the older changes', async () => {
    const first = await page(a, '/changes')
    expect(first.next).toMatch(/^\/changes\?cursor=[\w-]+$/)
    const second = await page(b, first.next ?? '')
    expect(second.response.statusCode).toBe(200)
    expect(second.rows.map((row) => row.cells[2])).toEqual(['Report 3', 'Report 2', 'Report 1'])
    expect(second.next).toBeUndefined()
    expect(second.data?.cursor).toBe(new URLSearchParams(first.next?.split('?')[1]).get('cursor'))
  })

  it('lists one editor’s changes at ?editor=, the editor kept in the next-page link', async () => {
    const bobs = await page(a, `/changes?editor=${bob}`)
    expect(bobs.rows.map((row) => row.cells[2])).toEqual(['Buy now', 'Spam words'])
    expect(bobs.document.querySelector('.changes-about')?.textContent).toContain(
      `Only the changes by Visitor ${bob}.`,
    )
    const alices = await page(b, `/changes?editor=${alice}`)
    expect(alices.rows).toHaveLength(LIST_PAGE)
    const next = new URL(alices.next ?? '', 'http://x')
    expect(next.pathname).toBe('/changes')
    expect(next.searchParams.get('editor')).toBe(alice)
    const rest = await page(a, alices.next ?? '')
    expect(rest.rows.map((row) => row.cells[2])).toEqual(['Report 1'])
  })

  it('answers 404 for a name no editor can have, saying so', async () => {
    const none = await page(a, '/changes?editor=127.0.0.2')
    expect(none.response.statusCode).toBe(404)
    expect(none.document.querySelector('.changes-about')?.textContent).toContain(
      'No editor is called “127.0.0.2”.',
    )
  })

  it('leads a cursor that names no page to the first page, the editor kept', async () => {
    const response = await a.app.inject({ url: `/changes?editor=${bob}&cursor=not-a-page` })
    expect(response.statusCode).toBe(302)
    expect(response.headers.location).toBe(`/changes?editor=${bob}`)
  })

  it('is linked from every page’s footer, beside Recently deleted', async () => {
    const home = await page(a, '/')
    const footer = [...home.document.querySelectorAll('footer a')].map((link) => [
      link.textContent,
      link.getAttribute('href'),
    ])
    expect(footer).toEqual([
      ['Recently deleted', '/trash'],
      ['Recent changes', '/changes'],
    ])
  })
})
