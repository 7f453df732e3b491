// @vitest-environment jsdom
import { act, screen, waitFor } from '@testing-library/react'
import { createMemoryApp, type MemoryApp } from '../support/memory-app'
import type { NewsItem } from '@/domain/news-item.entity'
import {
  expectFieldError,
  expectNoFieldError,
  expectRefused,
  fillAndLeave,
  findByline,
  findToast,
  newsItem,
  openForm,
  replace,
} from './support/render-app'

const post = newsItem()
const changed = {
  title: 'Harbour reopens for good',
  author: 'Grace Hopper',
  body: 'Every berth is taken.\nThe ferry runs again.',
}

async function openEditForm(app = createMemoryApp({ seed: [post] })) {
  const form = await openForm({ app, path: '/news/harbour-1/edit' }, 'Edit news', {
    title: 'Title',
    author: 'Author Name',
    body: 'Body',
  })
  // The form opens as the post arrives and takes its values just after.
  await waitFor(() => expect(form.title).toHaveValue(post.title))
  return form
}

/** A promise and the function that settles it. */
function gate() {
  let open = (): void => undefined
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { open, opened }
}

/** Holds every save of a post until released, while loads go on (unlike `faults.hold()`). */
function holdSaves(app: MemoryApp): () => void {
  const saves = gate()
  const update = app.news.update.bind(app.news)
  vi.spyOn(app.news, 'update').mockImplementation(async (id, changes) => {
    await saves.opened
    return update(id, changes)
  })
  return saves.open
}

/**
 * Waits until the article's load of the post (the first call since `get` was spied on) has
 * answered and its answer has reached the screen. The answer passes through the use case, the
 * machines and React as promise steps, and every pending promise step runs before a timer does,
 * so one timer tick (not a wait for time) is enough.
 */
async function articleLoaded(get: { mock: { results: { value: unknown }[] } }) {
  await waitFor(() => expect(get.mock.results).toHaveLength(1))
  await act(async () => {
    await get.mock.results[0]?.value
    await new Promise((resolve) => setTimeout(resolve, 0))
  })
}

async function fillChanges(form: Awaited<ReturnType<typeof openEditForm>>) {
  await replace(form.user, form.title, changed.title)
  await replace(form.user, form.author, changed.author)
  await replace(form.user, form.body, changed.body)
}

describe('edit news: the form', () => {
  it("shows Title, Author Name and Body filled in with the post's values and an Edit news button", async () => {
    const { title, author, body, submit } = await openEditForm()

    expect(screen.getByRole('heading', { level: 1, name: 'Edit news' })).toBeInTheDocument()
    expect(title).toHaveValue(post.title)
    expect(author).toHaveValue(post.author)
    expect(body).toHaveValue(post.body)
    expect(submit).toBeEnabled()
  })
})

describe('edit news: validation', () => {
  it('shows the required messages beside emptied fields once they are left', async () => {
    const form = await openEditForm()
    const { user, title, author, body } = form

    await user.clear(title)
    expectNoFieldError(title)
    await user.tab()
    await user.clear(author)
    await user.tab()
    await user.clear(body)
    await user.tab()

    await expectFieldError(title, 'Sorry, title is required')
    await expectFieldError(author, 'Sorry, author is required')
    await expectFieldError(body, 'Sorry, body is required')
  })

  it('shows the length messages beside fields that are too long once they are left', async () => {
    const { user, title, author, body } = await openEditForm()

    await fillAndLeave(user, title, 'x'.repeat(101 - post.title.length))
    await fillAndLeave(user, author, 'x'.repeat(31 - post.author.length))
    await fillAndLeave(user, body, 'x'.repeat(501 - post.body.length))

    await expectFieldError(title, 'Must be 100 characters or less')
    await expectFieldError(author, 'Name must be less than 30 characters')
    await expectFieldError(body, 'Must be 500 characters or less')
  })

  it('stays on the form, saves nothing and focuses the first field in error on submit', async () => {
    const app = createMemoryApp({ seed: [post] })
    const update = vi.spyOn(app.news, 'update')
    const { user, title, author, submit } = await openEditForm(app)
    await replace(user, author, '   ')

    await user.click(submit)

    await expectRefused([author, 'Sorry, author is required'])
    expectNoFieldError(title)
    expect(screen.getByRole('heading', { level: 1, name: 'Edit news' })).toBeInTheDocument()
    expect(update).not.toHaveBeenCalled()
    expect(await app.news.get('harbour-1')).toEqual(post)
  })
})

describe('edit news: submit', () => {
  it('shows the article with the new values at once, while the save is in flight', async () => {
    const app = createMemoryApp({ seed: [post] })
    const form = await openEditForm(app)
    await fillChanges(form)
    const release = app.news.faults.hold()

    await form.user.click(form.submit)

    expect(
      await screen.findByRole('heading', { level: 1, name: changed.title }),
    ).toBeInTheDocument()
    expect((await findByline()).textContent).toBe('Created By: Grace Hopper | 2024/03/15')
    expect(screen.getByText(/Every berth is taken/).textContent).toBe(changed.body)
    expect(screen.queryByRole('button', { name: 'Edit news' })).not.toBeInTheDocument()
    expect(screen.queryByText('successfully edited news post')).not.toBeInTheDocument()

    release()

    const toast = await findToast('successfully edited news post')
    expect(toast).toHaveClass('Toastify__toast--success')
    expect(screen.getByRole('heading', { level: 1, name: changed.title })).toBeInTheDocument()
    expect(await app.news.get('harbour-1')).toMatchObject({
      ...changed,
      revision: post.revision + 1,
    })
  })

  it('shows the new values in the list after the edit', async () => {
    const app = createMemoryApp({ seed: [post] })
    const form = await openEditForm(app)
    await fillChanges(form)
    await form.user.click(form.submit)
    await findToast('successfully edited news post')

    await form.user.click(screen.getByRole('link', { name: 'Home' }))

    expect(await screen.findByRole('article', { name: changed.title })).toBeInTheDocument()
    expect(screen.queryByText(post.title)).not.toBeInTheDocument()
  })

  it('shows the stored values again and says so when the save fails', async () => {
    const app = createMemoryApp({ seed: [post] })
    app.news.faults.failOn('update')
    const form = await openEditForm(app)
    await fillChanges(form)
    const release = holdSaves(app)
    const get = vi.spyOn(app.news, 'get')

    await form.user.click(form.submit)

    expect(
      await screen.findByRole('heading', { level: 1, name: changed.title }),
    ).toBeInTheDocument()
    await articleLoaded(get)
    expect(screen.getByRole('heading', { level: 1, name: changed.title })).toBeInTheDocument()

    release()

    const toast = await findToast('something went wrong, please try again later')
    expect(toast).toHaveClass('Toastify__toast--error')
    expect(await screen.findByRole('heading', { level: 1, name: post.title })).toBeInTheDocument()
    expect((await findByline()).textContent).toBe('Created By: Ada Lovelace | 2024/03/15')
    expect(screen.queryByText(changed.title)).not.toBeInTheDocument()
    expect(screen.queryByText('successfully edited news post')).not.toBeInTheDocument()
    expect(await app.news.get('harbour-1')).toEqual(post)
  })

  it('keeps the saved values when a load that read the post before the save answers after it', async () => {
    const app = createMemoryApp({ seed: [post] })
    const form = await openEditForm(app)
    await fillChanges(form)
    const release = holdSaves(app)
    const answer = gate()
    const read = app.news.get.bind(app.news)
    const get = vi.spyOn(app.news, 'get').mockImplementation(async (id): Promise<NewsItem> => {
      const item = await read(id) // read now, before the save
      await answer.opened // answer late, after the save
      return item
    })

    await form.user.click(form.submit)
    await screen.findByRole('heading', { level: 1, name: changed.title })
    release()
    await findToast('successfully edited news post')
    answer.open()
    await articleLoaded(get)

    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(changed.title)
    expect(await read('harbour-1')).toMatchObject({ ...changed, revision: post.revision + 1 })
  })
})
