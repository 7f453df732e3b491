// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react'
import type { MemoryApp } from '../support/memory-app'
import type { NewsItem } from '@/domain/news-item.entity'
import { NOTICES } from '@/ui/shared/notices'
import { findToast, newsItem, renderApp, tickingSite, utcMinute } from './support/render-app'

const harbour = newsItem({
  _id: 'harbour-1',
  title: 'Harbour reopens',
  body: 'Boats are back in the water.',
  author: 'Ada Lovelace',
})

const site = (seed: readonly NewsItem[] = [harbour]) => tickingSite(seed)

/** The post as created, then edited twice: three versions. */
async function editedTwice(): Promise<MemoryApp> {
  const app = site()
  await app.news.update(harbour._id, { title: 'Harbour reopens at dawn' })
  await app.news.update(harbour._id, { body: 'Fishing boats are back in the calm water.' })
  return app
}

const versions = () => within(screen.getByRole('list', { name: 'Versions, newest first' }))

/** The version whose heading starts with `Version n:`. */
function version(n: number): HTMLElement {
  return versions().getByRole('article', { name: new RegExp(`^Version ${n}:`) })
}

describe('history: the versions', () => {
  it('lists every version newest first, with its action, time and editor', async () => {
    const app = await editedTwice()
    await app.news.update(harbour._id, { author: 'Ada King' }, undefined, '3f9a2c0d1e')
    renderApp({ app, path: '/news/harbour-1/history' })

    expect(
      await screen.findByRole('heading', {
        level: 1,
        name: 'History of “Harbour reopens at dawn”',
      }),
    ).toBeVisible()
    expect(
      versions()
        .getAllByRole('heading', { level: 2 })
        .map((h) => h.textContent),
    ).toEqual([
      'Version 4: Edited (current)',
      'Version 3: Edited',
      'Version 2: Edited',
      'Version 1: Created',
    ])
    const [newest] = (await app.news.revisions(harbour._id, {})).items
    const time = within(version(4)).getByText(utcMinute(newest?.at))
    expect(time).toHaveAttribute('dateTime', newest?.at)
    // By the pseudonym of the editor's address, which `npm run news -- who ADDRESS` prints.
    expect(version(4)).toHaveTextContent('by Visitor 3f9a2c0d1e')
    expect(version(3)).toHaveTextContent('by a visitor (not recorded)')
    expect(document.title).toBe('History of Harbour reopens at dawn | NewsWire')
  })

  it('shows each change as a word diff against the version before it', async () => {
    const app = await editedTwice()
    renderApp({ app, path: '/news/harbour-1/history' })
    await screen.findByRole('heading', { level: 1 })

    const titleEdit = version(2)
    expect([...titleEdit.querySelectorAll('ins')].map((ins) => ins.textContent)).toEqual([
      'at dawn',
    ])
    expect(titleEdit.querySelectorAll('del')).toHaveLength(0)
    expect(titleEdit).toHaveTextContent('Unchanged: author, body.')

    const bodyEdit = version(3)
    expect([...bodyEdit.querySelectorAll('del')].map((del) => del.textContent)).toEqual(['Boats'])
    expect([...bodyEdit.querySelectorAll('ins')].map((ins) => ins.textContent)).toEqual([
      'Fishing boats',
      'calm ',
    ])
    // Screen readers hear which words came and went.
    expect(bodyEdit).toHaveTextContent('removed: Boats')
    expect(bodyEdit).toHaveTextContent('added: Fishing boats')

    // The first version shows its whole text, unmarked.
    const created = version(1)
    expect(created).toHaveTextContent(harbour.body)
    expect(created.querySelectorAll('ins, del')).toHaveLength(0)
  })

  it('renders posts as text, never as HTML', async () => {
    const app = site([newsItem({ _id: 'html-1', title: '<b>Bold</b> claim', body: '<img src=x>' })])
    await app.news.update('html-1', { body: '<script>alert(1)</script>' })
    renderApp({ app, path: '/news/html-1/history' })

    expect(
      await screen.findByRole('heading', { level: 1, name: 'History of “<b>Bold</b> claim”' }),
    ).toBeVisible()
    const main = screen.getByRole('main')
    expect(main.querySelector('b, img, script')).toBeNull()
    const added = [...version(2).querySelectorAll('ins')].map((ins) => ins.textContent)
    expect(added).toEqual(['script', 'alert(1)</script>'])
  })

  it('offers Restore this version on every version but the current one', async () => {
    const app = await editedTwice()
    renderApp({ app, path: '/news/harbour-1/history' })
    await screen.findByRole('heading', { level: 1 })

    expect(within(version(3)).queryByRole('button')).not.toBeInTheDocument()
    for (const n of [2, 1]) {
      const button = within(version(n)).getByRole('button', { name: 'Restore this version' })
      expect(button).toHaveAccessibleDescription(new RegExp(`^Version ${n}:`))
    }
  })

  it('links back to the article', async () => {
    const app = await editedTwice()
    const { user } = renderApp({ app, path: '/news/harbour-1/history' })

    await user.click(await screen.findByRole('link', { name: /^Back to the article/ }))

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Harbour reopens at dawn' }),
    ).toBeVisible()
  })

  it.each(['missing-post', 'not%20an%20id'])(
    'leads home with the not-available toast for the unknown id %s',
    async (id) => {
      renderApp({ app: site(), path: `/news/${id}/history` })

      await findToast(NOTICES.notAvailable)
      expect(await screen.findByRole('article', { name: harbour.title })).toBeVisible()
    },
  )
})

describe('history: restore a version', () => {
  it('makes the version current as a new one, reloads the history, and the article shows it', async () => {
    const app = await editedTwice()
    const { user } = renderApp({ app, path: '/news/harbour-1/history' })
    await screen.findByRole('heading', { level: 1 })

    await user.click(within(version(1)).getByRole('button', { name: 'Restore this version' }))

    await findToast(NOTICES.versionRestored)
    await waitFor(() => expect(version(4)).toHaveTextContent('Restored from version 1'))
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'History of “Harbour reopens”',
    )
    expect(versions().getAllByRole('listitem')).toHaveLength(4)
    expect(await app.news.get(harbour._id)).toMatchObject({
      title: harbour.title,
      body: harbour.body,
      revision: 4,
    })

    await user.click(screen.getByRole('link', { name: /^Back to the article/ }))
    expect(await screen.findByRole('heading', { level: 1, name: harbour.title })).toBeVisible()
    expect(screen.getByText(harbour.body)).toBeVisible()
  })

  it('says a post in the trash must come back from the trash first', async () => {
    const app = await editedTwice()
    await app.news.remove(harbour._id)
    const { user } = renderApp({ app, path: '/news/harbour-1/history' })

    expect(
      await screen.findByRole('heading', { level: 2, name: 'Version 4: Deleted (current)' }),
    ).toBeVisible()
    expect(screen.getByRole('link', { name: 'Restore it from Recently deleted' })).toHaveAttribute(
      'href',
      '/trash',
    )
    await user.click(within(version(1)).getByRole('button', { name: 'Restore this version' }))

    await findToast(NOTICES.restoreFromTrashFirst)
    expect(versions().getAllByRole('listitem')).toHaveLength(4)
  })
})
