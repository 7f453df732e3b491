// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react'
import { createMemoryApp } from '../support/memory-app'
import {
  expectFieldError,
  expectNoFieldError,
  fill,
  fillAndLeave,
  findToast,
  itAcceptsEach,
  itShowsEachRefusal,
  renderApp,
  storedNews,
} from './support/render-app'

const EMOJI = '👩🏽‍🚀' // one character to a reader, seven UTF-16 code units

async function openForm(options: Parameters<typeof renderApp>[0] = {}) {
  const rendered = renderApp({ path: '/news/new', ...options })
  await screen.findByRole('button', { name: 'Add news' })
  return {
    ...rendered,
    title: screen.getByLabelText('Title'),
    author: screen.getByLabelText('Author Name'),
    body: screen.getByLabelText('Body'),
    submit: screen.getByRole('button', { name: 'Add news' }),
  }
}

describe('add news: the form', () => {
  it('shows empty Title, Author Name and Body fields and an Add news button', async () => {
    const { title, author, body, submit } = await openForm()

    expect(screen.getByRole('heading', { level: 1, name: 'Add news' })).toBeInTheDocument()
    expect(title).toHaveValue('')
    expect(author).toHaveValue('')
    expect(body).toHaveValue('')
    expect(body.tagName).toBe('TEXTAREA')
    expect(submit).toBeEnabled()
  })

  it('shows no error before a field is touched, and shows it once the field is left', async () => {
    const { user, title, author, body } = await openForm()

    await user.click(title)
    await user.paste('x'.repeat(101))
    expect(screen.queryByText('Must be 100 characters or less')).not.toBeInTheDocument()
    expectNoFieldError(title)
    expectNoFieldError(author)
    expectNoFieldError(body)

    await user.tab()

    await expectFieldError(title, 'Must be 100 characters or less')
    expectNoFieldError(author)
    expectNoFieldError(body)
  })
})

describe('add news: validation', () => {
  const refused = [
    { field: 'Title', value: '', message: 'Sorry, title is required', as: 'an empty title' },
    { field: 'Title', value: '    ', message: 'Sorry, title is required', as: 'a title of spaces' },
    {
      field: 'Title',
      value: 'x'.repeat(101),
      message: 'Must be 100 characters or less',
      as: 'a title of 101 characters',
    },
    { field: 'Author Name', value: '', message: 'Sorry, author is required', as: 'no author' },
    {
      field: 'Author Name',
      value: 'x'.repeat(31),
      message: 'Name must be less than 30 characters',
      as: 'an author of 31 characters',
    },
    {
      field: 'Author Name',
      value: EMOJI.repeat(31),
      message: 'Name must be less than 30 characters',
      as: 'an author of 31 emoji',
    },
    { field: 'Body', value: '', message: 'Sorry, body is required', as: 'an empty body' },
    {
      field: 'Body',
      value: 'x'.repeat(501),
      message: 'Must be 500 characters or less',
      as: 'a body of 501 characters',
    },
    {
      field: 'Title',
      value: 'Breaking\u0007news',
      message: "Sorry, title can't contain control characters",
      as: 'a title with a bell character',
    },
    {
      field: 'Author Name',
      value: 'Ada\u202eecalevol',
      message: "Sorry, author can't contain control characters",
      as: 'an author with a right-to-left override',
    },
    {
      field: 'Body',
      value: 'First line\nSecond\u0000line',
      message: "Sorry, body can't contain control characters",
      as: 'a body with a NUL',
    },
  ]
  itShowsEachRefusal(openForm, refused)

  const accepted = [
    {
      field: 'Title',
      value: 'x'.repeat(100),
      tooLong: 'Must be 100 characters or less',
      as: 'a title of 100 characters',
    },
    {
      field: 'Author Name',
      value: 'x'.repeat(30),
      tooLong: 'Name must be less than 30 characters',
      as: 'an author of 30 characters',
    },
    {
      field: 'Author Name',
      value: EMOJI.repeat(30),
      tooLong: 'Name must be less than 30 characters',
      as: 'an author of 30 emoji',
    },
    {
      field: 'Body',
      value: 'x'.repeat(500),
      tooLong: 'Must be 500 characters or less',
      as: 'a body of 500 characters',
    },
    {
      field: 'Body',
      value: `${'x'.repeat(250)}\n${'y'.repeat(249)}`,
      tooLong: 'Must be 500 characters or less',
      as: 'a body of 500 characters with a line break',
    },
  ]
  itAcceptsEach(
    openForm,
    accepted.map(({ tooLong, ...each }) => ({
      ...each,
      refusedFirst: `${each.value}x`,
      refusal: tooLong,
    })),
  )

  it('shows every error, creates nothing and focuses Title when an empty form is submitted', async () => {
    const app = createMemoryApp()
    const create = vi.spyOn(app.news, 'create')
    const { user, title, author, body, submit } = await openForm({ app })

    await user.click(submit)

    expect(await screen.findByText('Sorry, title is required')).toBeInTheDocument()
    await expectFieldError(title, 'Sorry, title is required')
    await expectFieldError(author, 'Sorry, author is required')
    await expectFieldError(body, 'Sorry, body is required')
    await waitFor(() => expect(title).toHaveFocus())
    expect(create).not.toHaveBeenCalled()
    expect(await storedNews(app)).toHaveLength(0)
    expect(screen.getByRole('heading', { level: 1, name: 'Add news' })).toBeInTheDocument()
  })

  it('focuses the first field in error when the form is submitted', async () => {
    const app = createMemoryApp()
    const { user, title, author, body, submit } = await openForm({ app })
    await fill(user, title, 'Harbour reopens')
    await fillAndLeave(user, body, 'x'.repeat(501))

    await user.click(submit)

    expect(await screen.findByText('Sorry, author is required')).toBeInTheDocument()
    await waitFor(() => expect(author).toHaveFocus())
    expectNoFieldError(title)
    await expectFieldError(body, 'Must be 500 characters or less')
    expect(await storedNews(app)).toHaveLength(0)
  })
})

describe('add news: submit', () => {
  it('adds the post, says so, shows it in the list, and empties the form', async () => {
    const app = createMemoryApp({ now: () => new Date('2024-06-01T12:00:00.000Z') })
    const { user, title, author, body, submit } = await openForm({ app })
    await fill(user, title, 'Harbour reopens')
    await fill(user, author, 'Ada Lovelace')
    await fill(user, body, 'Boats are back.\nThe quay is repaired.')

    await user.click(submit)

    await findToast('successfully added news post')
    const card = await screen.findByRole('article', { name: 'Harbour reopens' })
    expect(within(card).getByText('Ada Lovelace')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Add news' })).not.toBeInTheDocument()
    expect(await storedNews(app)).toMatchObject([
      {
        title: 'Harbour reopens',
        author: 'Ada Lovelace',
        body: 'Boats are back.\nThe quay is repaired.',
        createdAt: '2024-06-01T12:00:00.000Z',
      },
    ])

    const nav = within(screen.getByRole('navigation', { name: 'Main' }))
    await user.click(nav.getByRole('link', { name: 'New News' }))
    await screen.findByRole('button', { name: 'Add news' })
    expect(screen.getByLabelText('Title')).toHaveValue('')
    expect(screen.getByLabelText('Author Name')).toHaveValue('')
    expect(screen.getByLabelText('Body')).toHaveValue('')
  })

  it('asks for a success toast and the list after adding the post', async () => {
    const showToast = vi.fn()
    const navigate = vi.fn()
    const { user, title, author, body, submit } = await openForm({
      effects: { showToast, navigate },
    })
    await fill(user, title, 'Harbour reopens')
    await fill(user, author, 'Ada Lovelace')
    await fill(user, body, 'Boats are back.')

    await user.click(submit)

    await waitFor(() => expect(navigate).toHaveBeenCalledWith({ to: '/', replace: true }))
    expect(showToast).toHaveBeenCalledExactlyOnceWith({
      kind: 'success',
      message: 'successfully added news post',
    })
  })

  it('keeps what was typed, stays on the form and says so when the post cannot be created', async () => {
    const app = createMemoryApp()
    app.news.faults.failOn('create')
    const { user, title, author, body, submit } = await openForm({ app })
    await fill(user, title, 'Harbour reopens')
    await fill(user, author, 'Ada Lovelace')
    await fill(user, body, 'Boats are back.\nThe quay is repaired.')

    await user.click(submit)

    const toast = await findToast(
      'something went wrong while creating the news post, try again later',
    )
    expect(toast).toHaveClass('Toastify__toast--error')
    expect(screen.getByRole('heading', { level: 1, name: 'Add news' })).toBeInTheDocument()
    expect(screen.getByLabelText('Title')).toHaveValue('Harbour reopens')
    expect(screen.getByLabelText('Author Name')).toHaveValue('Ada Lovelace')
    expect(screen.getByLabelText('Body')).toHaveValue('Boats are back.\nThe quay is repaired.')
    await waitFor(() => expect(screen.getByRole('button', { name: 'Add news' })).toBeEnabled())
    expect(await storedNews(app)).toHaveLength(0)

    app.news.faults.recover()
    await user.click(screen.getByRole('button', { name: 'Add news' }))

    await findToast('successfully added news post')
    expect(await screen.findByRole('article', { name: 'Harbour reopens' })).toBeInTheDocument()
  })
})
