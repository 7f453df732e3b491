// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react'
import { createMemoryApp } from '../support/memory-app'
import { forbidden } from '@/domain/domain-error'
import { PROTECTED_NOTE } from '@/ui/features/article/article.page'
import { DRAFT_TEXTS } from '@/ui/shared/form-texts'
import { findToast, newsItem, renderApp, replace } from './support/render-app'

const post = newsItem()
/** Blocked until this instant, which the toast says on the UTC clock. */
const UNTIL = '2026-12-01T10:00:00.000Z'
const blocked = forbidden({ reason: 'blocked', note: 'spam wave', until: UNTIL })

describe('the operator’s tools as a visitor meets them', () => {
  it('shows that a protected post is protected, with History but no Edit or Delete', async () => {
    renderApp({ seed: [{ ...post, protected: true }], path: '/news/harbour-1' })

    expect(await screen.findByText(PROTECTED_NOTE)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'History' })).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument()
  })

  it('tells a blocked visitor why and until when, and keeps what they typed', async () => {
    const app = createMemoryApp({ seed: [post] })
    vi.spyOn(app.news, 'update').mockRejectedValue(blocked)
    const { user } = renderApp({ app, path: '/news/harbour-1/edit' })
    const title = await screen.findByLabelText('Title')
    await waitFor(() => expect(title).toHaveValue(post.title))

    await replace(user, title, 'Harbour reopens for good')
    await user.click(screen.getByRole('button', { name: 'Edit news' }))

    const toast = await findToast(
      'the operator blocked changes from your address until 2026/12/01 10:00 UTC: spam wave',
    )
    // The article shows the stored post again; Review brings the visitor's text back.
    expect(await screen.findByRole('heading', { level: 1, name: post.title })).toBeInTheDocument()
    await user.click(within(toast).getByRole('button', { name: 'Review' }))
    expect(await screen.findByLabelText('Title')).toHaveValue('Harbour reopens for good')
    expect(screen.getByText(DRAFT_TEXTS.notSavedRefused)).toBeInTheDocument()
  })

  it('tells a blocked visitor so without an end or a reason when the block has neither', async () => {
    const app = createMemoryApp()
    vi.spyOn(app.news, 'create').mockRejectedValue(
      forbidden({ reason: 'blocked', note: '', until: null }),
    )
    const { user } = renderApp({ app, path: '/news/new' })

    await replace(user, await screen.findByLabelText('Title'), 'Harbour')
    await replace(user, screen.getByLabelText('Author Name'), 'Ada')
    await replace(user, screen.getByLabelText('Body'), 'Opens.')
    await user.click(screen.getByRole('button', { name: 'Add news' }))

    await findToast('the operator blocked changes from your address')
    expect(screen.getByLabelText('Body')).toHaveValue('Opens.')
  })

  it('says the post is protected when a delete meets a protection made meanwhile', async () => {
    const app = createMemoryApp({ seed: [post] })
    vi.spyOn(app.news, 'remove').mockRejectedValue(forbidden({ reason: 'protected' }))
    const { user } = renderApp({ app, path: '/news/harbour-1' })

    await user.click(await screen.findByRole('button', { name: 'Delete' }))

    await findToast('this post is protected: only the operator can change it')
    expect(screen.getByRole('heading', { level: 1, name: post.title })).toBeInTheDocument()
  })
})
