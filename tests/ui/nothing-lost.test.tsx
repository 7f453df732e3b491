// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react'
import { createMemoryApp, type MemoryApp } from '../support/memory-app'
import { draftKeys, memoryDraftStorage, thisPage } from '@/ui/shared/draft-storage'
import { readDraft } from '@/ui/shared/draft-values'
import { NEWS_FIELDS } from '@/domain/news-item.entity'
import { rateLimited } from '@/domain/domain-error'
import {
  fill,
  findToast,
  newsItem,
  renderApp,
  replace,
  storedNews,
  fillFields,
  marketPost,
} from './support/render-app'

const post = newsItem()
const other = marketPost
const theirs = { title: 'Harbour closes again for the winter' }
const mine = { title: 'Harbour reopens for good' }
/** A new post, as the add form's fields take it. */
const bridge = {
  Title: 'Bridge repairs finish early',
  'Author Name': 'Dan Ellis',
  Body: 'The old bridge opens on Monday.',
}

const DELETED = 'successfully deleted news post'
const RESTORED = 'the news post is back'
const EDIT_CONFLICT = 'this post was changed by someone else meanwhile, so your edit was not saved'
const DELETE_CONFLICT = 'this post was changed by someone else meanwhile, so it was not deleted'

/** Someone else saves the post through the API, past the screens. */
async function changedElsewhere(app: MemoryApp, changes: { title: string }) {
  await app.journal.update(post._id, changes)
}

/** The text a version of a field shows on screen: without its heading and what only screen readers hear. */
function shownText(version: HTMLElement): string {
  const text = version.querySelector('p')?.cloneNode(true) as HTMLElement | undefined
  text?.querySelectorAll('.visually-hidden').forEach((hidden) => hidden.remove())
  return text?.textContent ?? ''
}

async function openEditForm(app: MemoryApp, drafts = memoryDraftStorage()) {
  const rendered = renderApp({ app, drafts, path: `/news/${post._id}/edit` })
  await screen.findByRole('button', { name: 'Edit news' })
  await waitFor(() => expect(screen.getByLabelText('Title')).not.toHaveValue(''))
  return rendered
}

/** Retitles the post in the edit form, then closes the page: a draft of the edit is left. */
async function leaveAnEditDraft() {
  const app = createMemoryApp({ seed: [post] })
  const drafts = memoryDraftStorage()
  const first = await openEditForm(app, drafts)
  await replace(first.user, screen.getByLabelText('Title'), mine.title)
  first.unmount()
  return { app, drafts }
}

describe('undo delete', () => {
  it('offers Undo on the delete toast, which brings the post back to its place in the list', async () => {
    const app = createMemoryApp({ seed: [post, other] })
    const { user } = renderApp({ app, path: `/news/${post._id}` })
    await user.click(await screen.findByRole('button', { name: 'Delete' }))

    const toast = await findToast(DELETED)
    expect(await screen.findByRole('heading', { name: other.title })).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: post.title })).not.toBeInTheDocument()
    await user.click(within(toast).getByRole('button', { name: 'Undo' }))

    await findToast(RESTORED)
    const headings = await screen.findAllByRole('heading', { level: 2 })
    await waitFor(() =>
      expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
        post.title,
        other.title,
      ]),
    )
    expect(headings.length).toBeGreaterThan(0)
    expect((await storedNews(app)).map((item) => item._id)).toEqual([post._id, other._id])
  })

  it('says so when the post cannot be brought back', async () => {
    const app = createMemoryApp({ seed: [post] })
    const { user } = renderApp({ app, path: `/news/${post._id}` })
    await user.click(await screen.findByRole('button', { name: 'Delete' }))
    const toast = await findToast(DELETED)
    app.news.faults.failOn('restore')

    await user.click(within(toast).getByRole('button', { name: 'Undo' }))

    const failure = await findToast(
      'something went wrong while restoring the post, try again later',
    )
    expect(failure).toHaveClass('Toastify__toast--error')
    expect(await storedNews(app)).toEqual([])
  })
})

describe('edit conflicts', () => {
  it('saves nothing over a newer version, shows it, and lets the visitor review and overwrite on purpose', async () => {
    const app = createMemoryApp({ seed: [post] })
    const { user } = await openEditForm(app)
    await replace(user, screen.getByLabelText('Title'), mine.title)
    await changedElsewhere(app, theirs)

    await user.click(screen.getByRole('button', { name: 'Edit news' }))

    // Nothing was overwritten: the article shows the stored post, and the toast offers a review.
    const toast = await findToast(EDIT_CONFLICT)
    expect(toast).toHaveClass('Toastify__toast--error')
    expect(await screen.findByRole('heading', { level: 1, name: theirs.title })).toBeInTheDocument()
    expect(await app.news.get(post._id)).toMatchObject({ ...theirs, revision: 2 })

    await user.click(within(toast).getByRole('button', { name: 'Review' }))

    // The form holds the visitor's own text, beside the version saved meanwhile: the title both
    // changed shows both texts, the author nobody changed shows as it was.
    await waitFor(() => expect(screen.getByLabelText('Title')).toHaveValue(mine.title))
    const meanwhile = screen.getByRole('complementary', { name: 'Saved meanwhile' })
    const title = within(meanwhile).getByRole('group', { name: 'Title: you both changed it' })
    expect(shownText(within(title).getByRole('region', { name: 'Their text' }))).toBe(theirs.title)
    expect(shownText(within(title).getByRole('region', { name: 'Your text' }))).toBe(mine.title)
    expect(within(meanwhile).getByText(post.author)).toBeInTheDocument()

    // Someone saves once more: the review's save names the version it showed, so it is refused.
    await changedElsewhere(app, { title: 'A third title' })
    await user.click(screen.getByRole('button', { name: 'Edit news' }))
    expect(
      await screen.findByRole('heading', { level: 1, name: 'A third title' }),
    ).toBeInTheDocument()
    expect((await app.news.get(post._id)).title).toBe('A third title')

    await user.click(within(await findToast(EDIT_CONFLICT)).getByRole('button', { name: 'Review' }))
    await waitFor(() => expect(screen.getByLabelText('Title')).toHaveValue(mine.title))
    expect(
      shownText(
        within(screen.getByRole('complementary', { name: 'Saved meanwhile' })).getByRole('region', {
          name: 'Their text',
        }),
      ),
    ).toBe('A third title')
    await user.click(screen.getByRole('button', { name: 'Edit news' }))

    await findToast('successfully edited news post')
    expect(await app.news.get(post._id)).toMatchObject({ ...mine, revision: 4 })
  })

  it('keeps the article and shows the stored post when it changed before a delete, with a way to its history', async () => {
    const app = createMemoryApp({ seed: [post] })
    const { user } = renderApp({ app, path: `/news/${post._id}`, browser: true })
    await screen.findByRole('heading', { level: 1, name: post.title })
    await changedElsewhere(app, theirs)

    await user.click(screen.getByRole('button', { name: 'Delete' }))

    const toast = await findToast(DELETE_CONFLICT)
    expect(await screen.findByRole('heading', { level: 1, name: theirs.title })).toBeInTheDocument()
    expect(window.location.pathname).toBe(`/news/${post._id}`)
    expect(await app.news.get(post._id)).toMatchObject(theirs)

    await user.click(within(toast).getByRole('button', { name: 'Review' }))
    await waitFor(() => expect(window.location.pathname).toBe(`/news/${post._id}/history`))
  })
})

describe('drafts', () => {
  it('keeps what is typed in the add form across a reload, until the post is created', async () => {
    const drafts = memoryDraftStorage()
    const first = renderApp({ drafts, path: '/news/new' })
    await fill(first.user, await screen.findByLabelText('Title'), 'Bridge repairs finish early')
    await fill(first.user, screen.getByLabelText('Author Name'), 'Dan Ellis')
    first.unmount()

    const app = createMemoryApp()
    const second = renderApp({ app, drafts, path: '/news/new' })
    await waitFor(() =>
      expect(screen.getByLabelText('Title')).toHaveValue('Bridge repairs finish early'),
    )
    expect(screen.getByLabelText('Author Name')).toHaveValue('Dan Ellis')
    await fill(second.user, screen.getByLabelText('Body'), 'The old bridge opens on Monday.')
    await second.user.click(screen.getByRole('button', { name: 'Add news' }))

    await findToast('successfully added news post')
    await waitFor(() => expect(drafts.keys()).toEqual([]))
    expect(await storedNews(app)).toHaveLength(1)
  })

  it('writes the draft while the visitor types, so that a closed tab keeps it', async () => {
    const drafts = memoryDraftStorage()
    const { user } = renderApp({ drafts, path: '/contact' })
    await fill(user, await screen.findByLabelText('Your Message'), 'Please cover the bridge.')

    await waitFor(() =>
      expect(readDraft(drafts, draftKeys.contact(), ['name', 'email', 'message'])?.values).toEqual({
        name: '',
        email: '',
        message: 'Please cover the bridge.',
      }),
    )
  })

  it('throws a restored draft away on Discard draft, and shows the form empty', async () => {
    const drafts = memoryDraftStorage()
    const first = renderApp({ drafts, path: '/contact' })
    await fill(first.user, await screen.findByLabelText('Name'), 'Eve Ford')
    first.unmount()
    const { user } = renderApp({ drafts, path: '/contact' })
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveValue('Eve Ford'))

    await user.click(screen.getByRole('button', { name: 'Discard draft' }))

    expect(screen.getByLabelText('Name')).toHaveValue('')
    expect(screen.queryByRole('button', { name: 'Discard draft' })).not.toBeInTheDocument()
    await waitFor(() => expect(drafts.keys()).toEqual([]))
  })

  it('shows no Discard draft button when there was no draft', async () => {
    renderApp({ path: '/news/new' })
    await screen.findByRole('button', { name: 'Add news' })
    expect(screen.queryByRole('button', { name: 'Discard draft' })).not.toBeInTheDocument()
  })

  it('keeps the contact message across a reload until it is sent', async () => {
    const drafts = memoryDraftStorage()
    const first = renderApp({ drafts, path: '/contact' })
    await fill(first.user, await screen.findByLabelText('Name'), 'Eve Ford')
    await fill(first.user, screen.getByLabelText('Email Address'), 'eve@example.org')
    await fill(first.user, screen.getByLabelText('Your Message'), 'Please cover the bridge.')
    first.unmount()

    const app = createMemoryApp()
    const { user } = renderApp({ app, drafts, path: '/contact' })
    await waitFor(() =>
      expect(screen.getByLabelText('Your Message')).toHaveValue('Please cover the bridge.'),
    )
    await user.click(screen.getByRole('button', { name: 'Submit' }))

    await findToast('successfully sent the email')
    expect(app.mailer.sent).toHaveLength(1)
    await waitFor(() => expect(drafts.keys()).toEqual([]))
    expect(screen.getByLabelText('Your Message')).toHaveValue('')
  })

  it('lets the edit draft win over the stored post, until the save succeeds', async () => {
    const { app, drafts } = await leaveAnEditDraft()
    expect(readDraft(drafts, draftKeys.edit(post._id), NEWS_FIELDS)).toEqual({
      values: { title: mine.title, author: post.author, body: post.body },
      revision: 1,
      // The version it was started from, against which a review tells what the visitor changed.
      base: { title: post.title, author: post.author, body: post.body },
      page: thisPage,
    })

    const { user } = await openEditForm(app, drafts)
    await waitFor(() => expect(screen.getByLabelText('Title')).toHaveValue(mine.title))
    // Written against the version stored now: nothing was saved meanwhile.
    expect(screen.queryByRole('complementary', { name: 'Saved meanwhile' })).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Edit news' }))

    await findToast('successfully edited news post')
    await waitFor(() => expect(drafts.keys()).toEqual([]))
  })

  it('shows the stored post again when an edit draft is discarded', async () => {
    const { app, drafts } = await leaveAnEditDraft()

    const { user } = await openEditForm(app, drafts)
    await waitFor(() => expect(screen.getByLabelText('Title')).toHaveValue(mine.title))
    await user.click(screen.getByRole('button', { name: 'Discard draft' }))

    await waitFor(() => expect(screen.getByLabelText('Title')).toHaveValue(post.title))
    await waitFor(() => expect(drafts.keys()).toEqual([]))
  })

  it('keeps the edit draft when the save fails', async () => {
    const app = createMemoryApp({ seed: [post] })
    const drafts = memoryDraftStorage()
    const { user } = await openEditForm(app, drafts)
    await replace(user, screen.getByLabelText('Title'), mine.title)
    app.news.faults.failOn('update')

    await user.click(screen.getByRole('button', { name: 'Edit news' }))

    await findToast('something went wrong, please try again later')
    expect(readDraft(drafts, draftKeys.edit(post._id), NEWS_FIELDS)?.values.title).toBe(mine.title)
  })
})

describe('one post per submission', () => {
  it('creates one post when a submission is retried after its answer was lost', async () => {
    const app = createMemoryApp()
    app.news.faults.loseNextAnswer('create')
    const { user } = renderApp({ app, path: '/news/new' })
    await fillFields(user, bridge)

    await user.click(screen.getByRole('button', { name: 'Add news' }))
    await findToast('something went wrong while creating the news post, try again later')
    expect(await storedNews(app)).toHaveLength(1)
    await user.click(screen.getByRole('button', { name: 'Add news' }))

    await findToast('successfully added news post')
    expect(await storedNews(app)).toHaveLength(1)
  })
})

describe('the write limit', () => {
  it('says when to try again, from Retry-After, and keeps what was typed', async () => {
    const app = createMemoryApp()
    app.news.faults.failWith(rateLimited(7), 'create')
    const { user } = renderApp({ app, path: '/news/new' })
    await fillFields(user, bridge)

    await user.click(screen.getByRole('button', { name: 'Add news' }))

    const toast = await findToast('too many changes from your address, try again in 7 seconds')
    expect(toast).toHaveClass('Toastify__toast--error')
    expect(screen.getByLabelText('Title')).toHaveValue('Bridge repairs finish early')
    expect(screen.getByLabelText('Body')).toHaveValue('The old bridge opens on Monday.')
    expect(await storedNews(app)).toEqual([])
  })

  it.each([
    ['a delete', 'remove', `/news/${post._id}`, 'Delete'],
    ['a contact message', 'send', '/contact', 'Submit'],
  ] as const)('says when to try again for %s', async (_, write, path, button) => {
    const app = createMemoryApp({ seed: [post] })
    if (write === 'send') app.mailer.faults.failWith(rateLimited(1), write)
    else app.news.faults.failWith(rateLimited(1), write)
    const { user } = renderApp({ app, path })
    if (write === 'send') {
      await fillFields(user, {
        Name: 'Eve Ford',
        'Email Address': 'eve@example.org',
        'Your Message': 'Hello',
      })
    }
    await user.click(await screen.findByRole('button', { name: button }))

    await findToast('too many changes from your address, try again in 1 second')
    if (write === 'send') expect(screen.getByLabelText('Your Message')).toHaveValue('Hello')
  })
})

describe('redirects', () => {
  it('replaces the add form in the history after a post is created, so Back skips it', async () => {
    const { user } = renderApp({ path: '/contact', browser: true })
    await user.click(await screen.findByRole('link', { name: 'New News' }))
    await fillFields(user, bridge)
    await user.click(screen.getByRole('button', { name: 'Add news' }))
    await findToast('successfully added news post')
    await waitFor(() => expect(window.location.pathname).toBe('/'))

    await act(async () => window.history.back())

    // Back leaves the list for the page before the add form, never the add form again.
    await waitFor(() => expect(window.location.pathname).toBe('/contact'))
    expect(await screen.findByRole('heading', { name: 'Contact us' })).toBeInTheDocument()
  })
})
