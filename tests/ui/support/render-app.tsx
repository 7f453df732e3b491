import { configure, render, screen, waitFor, within } from '@testing-library/react'
import userEvent, { type UserEvent } from '@testing-library/user-event'
import { createMemoryApp, type MemoryApp } from '../../support/memory-app'
import type { NewsItem } from '@/domain/news-item.entity'
import type { AppEffects } from '@/ui/shared/app-services'
import { MemoryRouter } from 'react-router-dom'
import { NewsWireApp, type NewsWireAppProps } from '@/ui/app/news-wire-app'
import { newsItem } from '../../support/news-item'
import { memoryDraftStorage, type DraftStorage } from '@/ui/shared/draft-storage'

// Screens other than '/' and react-toastify load lazily; the first import in a file takes a moment.
configure({ asyncUtilTimeout: 4000 })

/** The shared post builders (tests/support/news-item.ts), as the screen tests import them. */
export { manyNews, newsItem } from '../../support/news-item'

/** A second post beside `newsItem()`'s, written the day before it. */
export const marketPost = newsItem({
  _id: 'market-1',
  title: 'Night market returns',
  body: 'Forty stalls open on Friday evenings.',
  author: 'Ben Carter',
  createdAt: '2024-03-14T12:00:00.000Z',
  updatedAt: '2024-03-14T12:00:00.000Z',
})

export interface RenderAppOptions {
  readonly path?: string
  readonly seed?: readonly NewsItem[]
  readonly app?: MemoryApp
  readonly effects?: Partial<AppEffects>
  /** Where the forms keep drafts: one per test unless a test shares one, as a reload does. */
  readonly drafts?: DraftStorage
  /** Route with jsdom's address bar and history (Back), instead of in memory. */
  readonly browser?: boolean
  /** Follow the memory app's live change feed (`app.changes`), as the browser does. */
  readonly live?: boolean
  /** What the server rendered the page with, for the screens to start from. */
  readonly pageData?: NewsWireAppProps['pageData']
}

/** Renders the whole app at `path` on the in-memory composition root. */
export function renderApp({
  path = '/',
  seed = [],
  app,
  effects,
  drafts = memoryDraftStorage(),
  browser = false,
  live = false,
  pageData,
}: RenderAppOptions = {}) {
  const memory = app ?? createMemoryApp({ seed, now: () => new Date('2024-06-01T12:00:00.000Z') })
  const user = userEvent.setup()
  if (browser) window.history.replaceState(null, '', path)
  const result = render(
    <NewsWireApp
      useCases={memory.useCases}
      router={
        browser
          ? undefined
          : ({ children }) => <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
      }
      effects={effects}
      drafts={drafts}
      changes={live ? memory.changes : undefined}
      pageData={pageData}
    />,
  )
  return { app: memory, user, drafts, ...result }
}

/** A toast as react-toastify renders it (it loads with the first toast). */
export async function findToast(message: string): Promise<HTMLElement> {
  const text = await screen.findByText(message)
  const toast = text.closest<HTMLElement>('.Toastify__toast')
  if (toast === null) throw new Error(`'${message}' is not inside a toast`)
  return toast
}

/**
 * Renders the form at `path` and waits for its `button`: the form's fields by `labels`, each
 * under its own key, and the button as `submit`.
 */
export async function openForm<Field extends string>(
  options: RenderAppOptions & { readonly path: string },
  button: string,
  labels: Readonly<Record<Field, string>>,
) {
  const rendered = renderApp(options)
  const submit = await screen.findByRole('button', { name: button })
  const fields = Object.fromEntries(
    Object.entries<string>(labels).map(([field, label]) => [field, screen.getByLabelText(label)]),
  ) as Record<Field, HTMLElement>
  return { ...rendered, ...fields, submit }
}

/** Every post the repository holds, newest first. */
export async function storedNews(app: MemoryApp): Promise<readonly NewsItem[]> {
  return (await app.news.list({ limit: 100 })).items
}

/** Puts `value` in the field at once, as a paste: long texts type slowly. */
export async function fill(user: UserEvent, field: HTMLElement, value: string): Promise<void> {
  await user.click(field)
  if (value !== '') await user.paste(value)
}

/** Fills the fields by their labels, in order, each as a paste. */
export async function fillFields(
  user: UserEvent,
  values: Readonly<Record<string, string>>,
): Promise<void> {
  for (const [label, value] of Object.entries(values)) {
    await fill(user, await screen.findByLabelText(label), value)
  }
}

/** Replaces the field's value, as a visitor selecting it all and pasting. */
export async function replace(user: UserEvent, field: HTMLElement, value: string): Promise<void> {
  await user.clear(field)
  if (value !== '') await user.paste(value)
}

/** Fills the field, then leaves it, which marks it as touched. */
export async function fillAndLeave(
  user: UserEvent,
  field: HTMLElement,
  value: string,
): Promise<void> {
  await fill(user, field, value)
  await user.tab()
}

/** An ISO instant's YYYY/MM/DD HH:mm on the UTC clock, said as such: the pages' wording. */
export function utcMinute(iso: string | undefined): string {
  const [day = '', time = ''] = new Date(iso ?? NaN).toISOString().split('T')
  return `${day.replaceAll('-', '/')} ${time.slice(0, 5)} UTC`
}

/** The article's 'Created By: {author} | {date}' line; the author sits in its own <bdi>. */
export async function findByline(): Promise<HTMLElement> {
  return screen.findByText((_, element) => element?.classList.contains('article-byline') ?? false)
}

/** Waits for the field's message: next to it, linked to it, with the field marked invalid. */
export async function expectFieldError(field: HTMLElement, message: string): Promise<void> {
  const box = field.closest<HTMLElement>('.field')
  if (box === null) throw new Error('the field has no box')
  await waitFor(() => {
    expect(within(box).getByText(message)).toBeInTheDocument()
    expect(field).toHaveAttribute('aria-invalid', 'true')
    // The room used against the limit ('12/100') follows the message in the description.
    expect(field).toHaveAccessibleDescription(expect.stringMatching(`^${escapeRegExp(message)}`))
  })
}

/** After a submit: each field shows its message, and the first of them has the focus. */
export async function expectRefused(
  ...fields: readonly (readonly [field: HTMLElement, message: string])[]
): Promise<void> {
  for (const [field, message] of fields) await expectFieldError(field, message)
  await waitFor(() => expect(fields[0]?.[0]).toHaveFocus())
}

/** The field shows no message and is not marked invalid, as now. */
export function expectNoFieldError(field: HTMLElement): void {
  expect(field).toHaveAttribute('aria-invalid', 'false')
  // Described by the room used against the limit at most.
  expect(field).toHaveAccessibleDescription(/^(\d+\/\d+)?$/)
  expect(field.closest('.field')?.querySelector('.field-error')).toBeNull()
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Values the form refuses, by the field's label, then by what each is: [value, message]. */
export type Refusals = Readonly<
  Record<string, Readonly<Record<string, readonly [value: string, message: string]>>>
>

/**
 * Values the form takes, by the field's label, then by what each is: [value, refusedFirst,
 * refusal], where `refusedFirst`, a little different, is refused with `refusal`.
 */
export type Acceptances = Readonly<
  Record<
    string,
    Readonly<Record<string, readonly [value: string, refusedFirst: string, refusal: string]>>
  >
>

type OpenForm = () => Promise<{ readonly user: UserEvent }>

/** A value typed into a field shows its message only once the field is left, and only there. */
export function itShowsAnErrorOnceTheFieldIsLeft(
  open: OpenForm,
  field: string,
  [value, message]: readonly [value: string, message: string],
): void {
  it('shows no error before a field is touched, and shows it once the field is left', async () => {
    const { user } = await open()
    const input = screen.getByLabelText(field)
    const others = screen.getAllByRole('textbox').filter((each) => each !== input)

    await fill(user, input, value)
    expect(screen.queryByText(message)).not.toBeInTheDocument()
    for (const each of [input, ...others]) expectNoFieldError(each)

    await user.tab()

    await expectFieldError(input, message)
    for (const each of others) expectNoFieldError(each)
  })
}

/**
 * Submitted empty, the form shows each field's required message, focuses the first field, and
 * stays, having written nothing.
 */
export function itRefusesAnEmptyForm(
  open: (app: MemoryApp) => Promise<{ readonly user: UserEvent; readonly submit: HTMLElement }>,
  required: Readonly<Record<string, string>>,
): void {
  it('shows every error, focuses the first field and writes nothing when submitted empty', async () => {
    const app = createMemoryApp()
    const { user, submit } = await open(app)

    await user.click(submit)

    const fields = Object.entries(required)
    await expectRefused(
      ...fields.map(([label, message]) => [screen.getByLabelText(label), message] as const),
    )
    expect(submit).toBeInTheDocument()
    expect(await storedNews(app)).toEqual([])
    expect(app.mailer.sent).toEqual([])
  })
}

/** Each case of each field, as [the test's name, the field's label, the case's values]. */
function casesOf<Values>(
  byField: Readonly<Record<string, Readonly<Record<string, Values>>>>,
  name: (field: string, as: string, values: Values) => string,
) {
  return Object.entries(byField).flatMap(([field, cases]) =>
    Object.entries(cases).map(([as, values]) => [name(field, as, values), field, values] as const),
  )
}

/** One test per refused value: typed into its field and left, the field shows its message. */
export function itShowsEachRefusal(open: OpenForm, refused: Refusals): void {
  const cases = casesOf(
    refused,
    (field, as, [, message]) => `shows '${message}' beside ${field} for ${as}`,
  )
  it.each(cases)('%s', async (_, field, [value, message]) => {
    const { user } = await open()
    const input = screen.getByLabelText(field)

    await fillAndLeave(user, input, value)

    await expectFieldError(input, message)
  })
}

/** One test per accepted value: it clears the refusal of the value typed before it. */
export function itAcceptsEach(open: OpenForm, accepted: Acceptances): void {
  it.each(casesOf(accepted, (_, as) => `accepts ${as}`))(
    '%s',
    async (_, field, [value, refusedFirst, refusal]) => {
      const { user } = await open()
      const input = screen.getByLabelText(field)

      await fillAndLeave(user, input, refusedFirst)
      await expectFieldError(input, refusal)

      await replace(user, input, value)

      await waitFor(() => expectNoFieldError(input))
      expect(input).toHaveValue(value)
    },
  )
}

/** An in-memory site whose clock moves a minute on from `start` with each change: order is clear. */
export function tickingSite(
  seed: readonly NewsItem[],
  start: number = Date.UTC(2024, 5, 1, 12),
): MemoryApp {
  let minute = 0
  return createMemoryApp({ seed, now: () => new Date(start + 60_000 * minute++) })
}
