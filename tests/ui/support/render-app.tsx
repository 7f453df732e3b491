import { configure, render, screen, waitFor, within } from '@testing-library/react'
import userEvent, { type UserEvent } from '@testing-library/user-event'
import { createMemoryApp, type MemoryApp } from '../../support/memory-app'
import type { NewsItem } from '@/domain/news-item.entity'
import type { AppEffects } from '@/ui/shared/app-services'
import { MemoryRouter } from 'react-router-dom'
import { NewsWireApp } from '@/ui/app/news-wire-app'
import { memoryDraftStorage, type DraftStorage } from '@/ui/shared/draft-storage'

// Screens other than '/' and react-toastify load lazily; the first import in a file takes a moment.
configure({ asyncUtilTimeout: 4000 })

/** The shared post builders (tests/support/news-item.ts), as the screen tests import them. */
export { manyNews, newsItem } from '../../support/news-item'

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

/** A value a field refuses, with the message shown beside it. */
export interface RefusedValue {
  readonly field: string
  readonly value: string
  readonly message: string
  readonly as: string
}

/** A value a field takes, though one a little different (`refusedFirst`) is refused. */
export interface AcceptedValue {
  readonly field: string
  readonly value: string
  readonly refusedFirst: string
  readonly refusal: string
  readonly as: string
}

type OpenForm = () => Promise<{ readonly user: UserEvent }>

/** One test per refused value: typed into its field and left, the field shows its message. */
export function itShowsEachRefusal(open: OpenForm, refused: readonly RefusedValue[]): void {
  const named = refused.map(
    (each) => [`shows '${each.message}' beside ${each.field} for ${each.as}`, each] as const,
  )
  it.each(named)('%s', async (_, { field, value, message }) => {
    const { user } = await open()
    const input = screen.getByLabelText(field)

    await fillAndLeave(user, input, value)

    await expectFieldError(input, message)
  })
}

/** One test per accepted value: it clears the refusal of the value typed before it. */
export function itAcceptsEach(open: OpenForm, accepted: readonly AcceptedValue[]): void {
  const named = accepted.map((each) => [`accepts ${each.as}`, each] as const)
  it.each(named)('%s', async (_, { field, value, refusedFirst, refusal }) => {
    const { user } = await open()
    const input = screen.getByLabelText(field)

    await fillAndLeave(user, input, refusedFirst)
    await expectFieldError(input, refusal)

    await replace(user, input, value)

    await waitFor(() => expectNoFieldError(input))
    expect(input).toHaveValue(value)
  })
}

/** An in-memory site whose clock moves a minute on from `start` with each change: order is clear. */
export function tickingSite(
  seed: readonly NewsItem[],
  start: number = Date.UTC(2024, 5, 1, 12),
): MemoryApp {
  let minute = 0
  return createMemoryApp({ seed, now: () => new Date(start + 60_000 * minute++) })
}
