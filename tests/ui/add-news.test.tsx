// @vitest-environment jsdom
import { screen, within } from '@testing-library/react'
import { createMemoryApp } from '../support/memory-app'
import {
  expectNoFieldError,
  expectRefused,
  fill,
  fillAndLeave,
  findToast,
  itAcceptsEach,
  itRefusesAnEmptyForm,
  itShowsAnErrorOnceTheFieldIsLeft,
  itShowsEachRefusal,
  openForm,
  type RenderAppOptions,
  storedNews,
} from './support/render-app'

const EMOJI = '👩🏽‍🚀' // one character to a reader, seven UTF-16 code units
const TITLE_TOO_LONG = 'Must be 100 characters or less'
const AUTHOR_TOO_LONG = 'Name must be less than 30 characters'
const BODY_TOO_LONG = 'Must be 500 characters or less'

/** A value at the field's limit, taken though one character more is refused as `tooLong`. */
const atTheLimit = (value: string, tooLong: string) => [value, `${value}x`, tooLong] as const

const openAddForm = (options: RenderAppOptions = {}) =>
  openForm({ path: '/news/new', ...options }, 'Add news', {
    title: 'Title',
    author: 'Author Name',
    body: 'Body',
  })

describe('add news: the form', () => {
  it('shows empty Title, Author Name and Body fields and an Add news button', async () => {
    const { title, author, body, submit } = await openAddForm()

    expect(screen.getByRole('heading', { level: 1, name: 'Add news' })).toBeInTheDocument()
    expect(title).toHaveValue('')
    expect(author).toHaveValue('')
    expect(body).toHaveValue('')
    expect(body.tagName).toBe('TEXTAREA')
    expect(submit).toBeEnabled()
  })

  itShowsAnErrorOnceTheFieldIsLeft(openAddForm, 'Title', ['x'.repeat(101), TITLE_TOO_LONG])
})

describe('add news: validation', () => {
  itShowsEachRefusal(openAddForm, {
    Title: {
      'an empty title': ['', 'Sorry, title is required'],
      'a title of spaces': ['    ', 'Sorry, title is required'],
      'a title of 101 characters': ['x'.repeat(101), TITLE_TOO_LONG],
      'a title with a bell character': [
        'Breaking\u0007news',
        "Sorry, title can't contain control characters",
      ],
    },
    'Author Name': {
      'no author': ['', 'Sorry, author is required'],
      'an author of 31 characters': ['x'.repeat(31), AUTHOR_TOO_LONG],
      'an author of 31 emoji': [EMOJI.repeat(31), AUTHOR_TOO_LONG],
      'an author with a right-to-left override': [
        'Ada\u202eecalevol',
        "Sorry, author can't contain control characters",
      ],
    },
    Body: {
      'an empty body': ['', 'Sorry, body is required'],
      'a body of 501 characters': ['x'.repeat(501), BODY_TOO_LONG],
      'a body with a NUL': [
        'First line\nSecond\u0000line',
        "Sorry, body can't contain control characters",
      ],
    },
  })

  itAcceptsEach(openAddForm, {
    Title: { 'a title of 100 characters': atTheLimit('x'.repeat(100), TITLE_TOO_LONG) },
    'Author Name': {
      'an author of 30 characters': atTheLimit('x'.repeat(30), AUTHOR_TOO_LONG),
      'an author of 30 emoji': atTheLimit(EMOJI.repeat(30), AUTHOR_TOO_LONG),
    },
    Body: {
      'a body of 500 characters': atTheLimit('x'.repeat(500), BODY_TOO_LONG),
      'a body of 500 characters with a line break': atTheLimit(
        `${'x'.repeat(250)}\n${'y'.repeat(249)}`,
        BODY_TOO_LONG,
      ),
    },
  })

  itRefusesAnEmptyForm((app) => openAddForm({ app }), {
    Title: 'Sorry, title is required',
    'Author Name': 'Sorry, author is required',
    Body: 'Sorry, body is required',
  })

  it('focuses the first field in error when the form is submitted', async () => {
    const app = createMemoryApp()
    const { user, title, author, body, submit } = await openAddForm({ app })
    await fill(user, title, 'Harbour reopens')
    await fillAndLeave(user, body, 'x'.repeat(501))

    await user.click(submit)

    await expectRefused([author, 'Sorry, author is required'], [body, BODY_TOO_LONG])
    expectNoFieldError(title)
    expect(await storedNews(app)).toHaveLength(0)
  })
})

describe('add news: submit', () => {
  it('adds the post, says so, shows it in the list, and empties the form', async () => {
    const app = createMemoryApp({ now: () => new Date('2024-06-01T12:00:00.000Z') })
    const { user, title, author, body, submit } = await openAddForm({ app })
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
})
