/**
 * Runs a machine's model path (tests/model) through the rendered app in jsdom: the visitor's
 * events become clicks and typing, each use case's answer is let through, made to fail, or made
 * real on the in-memory adapters first, and after each step the screen must show what its
 * state means.
 */
import { render, screen as page, waitFor } from '@testing-library/react'
import userEvent, { type UserEvent } from '@testing-library/user-event'
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine, StateValue } from 'xstate'
import type { DomainError } from '@/domain/domain-error'
import type { NewsItem } from '@/domain/news-item.entity'
import { NewsWireApp } from '@/ui/app/news-wire-app'
import { memoryDraftStorage } from '@/ui/shared/draft-storage'
import type { Inspect } from '@/ui/shared/inspection'
import { OPERATION_OF, type NewsOperation } from '../../model/machine-rig'
import {
  CoverageRecorder,
  eventName,
  expectCoverage,
  itTakesEachPath,
  outcomeOf,
  stateName,
  transitionPaths,
  type Model,
  type ModelPath,
} from '../../model/model-harness'
import type { PortFaults } from '../../support/faulty-port'
import type { MemoryApp } from '../../support/memory-app'
// Also sets the screens' wait for lazily loaded screens and toasts.
import { findToast, replace, tickingSite } from './render-app'

/**
 * Holds every call of one adapter until the path says how it answers. The faults keep one hold
 * at a time, so the next is armed as soon as the last is released, before anything resumes.
 */
export class Gate<Name extends string> {
  private release: () => void

  constructor(private readonly faults: PortFaults<Name>) {
    this.release = faults.hold()
  }

  /** Lets the waiting calls through: failing `failing`, or all succeeding. */
  open(failing?: Name): void {
    this.faults.recover()
    if (failing !== undefined) this.faults.failOn(failing)
    this.release()
    this.release = this.faults.hold()
  }

  close(): void {
    this.faults.recover()
    this.release()
  }
}

/** Watches the machines of the rendered app: their latest snapshots, and the coverage. */
function watch(coverage: CoverageRecorder) {
  const latest = new Map<string, StateValue>()
  const inspect: Inspect = (event) => {
    coverage.inspect(event)
    const snapshot =
      event.type === '@xstate.snapshot' ? (event.snapshot as AnyMachineSnapshot) : undefined
    if (snapshot?.machine !== undefined) latest.set(snapshot.machine.id, snapshot.value)
  }
  return { inspect, value: (machineId: string) => latest.get(machineId) }
}

export interface Screen {
  readonly user: UserEvent
  readonly app: MemoryApp
  /** Holds the news repository's calls until a step lets them through. */
  readonly news: Gate<NewsOperation>
  readonly mail: Gate<'send'>
}

export interface ScreenStep {
  readonly event: AnyEventObject
  /** The model's snapshot after the step. */
  readonly expected: AnyMachineSnapshot
  readonly screen: Screen
}

export interface ScreenDriver {
  /** Where the screen lives, and what the adapters hold, for this path. */
  readonly open: (path: ModelPath) => { readonly url: string; readonly seed: readonly NewsItem[] }
  /** What the site holds besides, arranged through the repository before the page opens. */
  readonly arrange?: (app: MemoryApp) => Promise<void>
  /**
   * Lets the held call of a use case through as the path's outcome says, by actor name, where
   * the default will not do: an outage fails it, and other errors are made real first.
   */
  readonly answer?: Readonly<
    Record<string, (screen: Screen, error: DomainError | undefined) => Promise<void>>
  >
  /** What the visitor does for each event the machine receives from the screen. */
  readonly act: Readonly<Record<string, (step: ScreenStep) => Promise<void>>>
  /** What the visitor must see in each state, by the state's name. */
  readonly see: Readonly<Record<string, (step: ScreenStep) => Promise<void>>>
  /**
   * For a path where a write answers Stale: someone else saves the post while the visitor's
   * write waits, so that the real rules refuse it (the post's id; by default the only seed).
   */
  readonly changedMeanwhile?: string
}

/** What someone else saves while the visitor's write waits (see ScreenDriver.changedMeanwhile). */
export const CHANGE_MEANWHILE = { title: 'Harbour closes again for the winter' }

/**
 * Paths over the states the visitor tells apart, one per transition between them, leaving out
 * what the screen cannot do in a state (no button sends that event there) and answers the
 * in-memory adapters cannot give.
 */
export function screenPaths(
  model: Model,
  reproducible: (snapshot: AnyMachineSnapshot, event: AnyEventObject) => boolean,
) {
  return transitionPaths({
    ...model,
    abstract: (snapshot) => snapshot.value,
    skip: (snapshot, event) =>
      writeLimited(event) ||
      !reproducible(snapshot, event) ||
      (model.skip?.(snapshot, event) ?? false),
  })
}

/**
 * The in-memory adapters have no write limit. Its answer takes the same transition as any
 * other failure, which these paths take; the screens' own tests check the 429 texts.
 */
function writeLimited(event: AnyEventObject): boolean {
  return (event as { error?: { code?: string } }).error?.code === 'RateLimited'
}

/**
 * The default answer: a missing post is one the adapters do not hold; a stale write is one
 * whose post someone else saved meanwhile; any other failure is an outage.
 */
async function answerAs(
  screen: Screen,
  src: string,
  error: DomainError | undefined,
  changedMeanwhile: string | readonly NewsItem[],
): Promise<void> {
  const operation = OPERATION_OF[src]
  if (operation === undefined) throw new Error(`no adapter behind ${src}`)
  if (error?.code === 'Stale') await changeMeanwhile(screen.app, changedMeanwhile)
  const fails = error !== undefined && error.code !== 'NotFound' && error.code !== 'Stale'
  if (operation === 'send') screen.mail.open(fails ? 'send' : undefined)
  else screen.news.open(fails ? operation : undefined)
}

export async function runScreenPath(
  model: Model,
  path: ModelPath,
  driver: ScreenDriver,
  coverage: CoverageRecorder,
  machine: AnyStateMachine = model.machine,
): Promise<void> {
  const { url, seed } = driver.open(path)
  // A minute on with each change, so that the order of versions and deletions is clear.
  const app = tickingSite(seed, Date.UTC(2025, 2, 5, 12))
  await driver.arrange?.(app)
  const screen: Screen = {
    user: userEvent.setup(),
    app,
    news: new Gate(app.news.faults),
    mail: new Gate(app.mailer.faults),
  }
  const watcher = watch(coverage)
  window.history.replaceState(null, '', url)
  const view = render(
    <NewsWireApp useCases={app.useCases} inspect={watcher.inspect} drafts={memoryDraftStorage()} />,
  )
  try {
    for (const [index, step] of path.steps.entries()) {
      const label = `step ${index}, ${eventName(model, step.event)}`
      const screenStep = { event: step.event, expected: step.state, screen }
      if (index > 0) {
        const outcome = outcomeOf(model.machine, step.event)
        if (outcome === undefined) {
          const act = driver.act[step.event.type]
          if (act === undefined) throw new Error(`${label}: the screen cannot send this event`)
          await act(screenStep)
        } else {
          const error = outcome.ok ? undefined : outcome.error
          const answer = driver.answer?.[outcome.src]
          if (answer !== undefined) await answer(screen, error)
          else await answerAs(screen, outcome.src, error, driver.changedMeanwhile ?? seed)
        }
      }
      await waitFor(() => expect(watcher.value(machine.id), label).toEqual(step.state.value))
      await driver.see[stateName(step.state.value)]?.(screenStep)
    }
  } finally {
    screen.news.close()
    screen.mail.close()
    view.unmount()
  }
}

export interface ScreenSuite {
  /** Whether the screen can take an event in a state (see screenPaths); by default, always. */
  readonly reproducible?: (snapshot: AnyMachineSnapshot, event: AnyEventObject) => boolean
  /** The name of the test that the paths took every state and transition through the screen. */
  readonly covers?: string
  /** The states and transitions that something else takes through the screen (each says what). */
  readonly missed?: {
    readonly states?: readonly string[]
    readonly transitions?: readonly string[]
  }
}

/**
 * A screen's path suite: each path of its machine's model, taken through the rendered app by
 * `driver`, and then that the paths reached every state and transition but those `missed`.
 */
export function describeScreenPaths(
  title: string,
  model: Model,
  driver: ScreenDriver,
  {
    reproducible = () => true,
    covers = 'reaches every state and every transition through the screen',
    missed = {},
  }: ScreenSuite = {},
): void {
  const coverage = new CoverageRecorder(model.machine)
  const paths = screenPaths(model, reproducible)
  describe(title, () => {
    itTakesEachPath(model, paths, (path) => runScreenPath(model, path, driver, coverage))
    it(covers, () => expectCoverage(coverage, missed, 'through the screen: '))
  })
}

/** Saves the post past the faults, as another visitor would, while the visitor's write waits. */
async function changeMeanwhile(app: MemoryApp, post: string | readonly NewsItem[]) {
  const id = typeof post === 'string' ? post : post[0]?._id
  if (id === undefined) throw new Error('a stale write needs a post to change')
  await app.journal.update(id, CHANGE_MEANWHILE)
}

/** A toast as react-toastify shows it. */
export async function seeToast(message: string): Promise<void> {
  await findToast(message)
}

export async function seeLocation(pathname: string): Promise<void> {
  await waitFor(() => expect(window.location.pathname).toBe(pathname))
}

/** Replaces what the field labelled `label` holds, as a visitor selecting it all and pasting. */
export async function retype(user: UserEvent, label: string, value: string): Promise<void> {
  await replace(user, page.getByLabelText(label), value)
}

/** Replaces what each field holds, by its label, as `retype` does. */
export async function retypeAll<Field extends string>(
  user: UserEvent,
  labels: Readonly<Record<Field, string>>,
  values: Readonly<Record<NoInfer<Field>, string>>,
): Promise<void> {
  for (const field of Object.keys(labels) as Field[])
    await retype(user, labels[field], values[field])
}

/** Each field, by its label, holds its value. */
export function seeValues<Field extends string>(
  labels: Readonly<Record<Field, string>>,
  values: Readonly<Record<NoInfer<Field>, string>>,
): void {
  for (const field of Object.keys(labels) as Field[]) {
    expect(page.getByLabelText(labels[field])).toHaveValue(values[field])
  }
}

/** Whether a use case answers NotFound along the path: it opens the address of no post. */
export function meetsNotFound(path: ModelPath): boolean {
  return path.steps.some(
    (step) => (step.event as { error?: { code?: string } }).error?.code === 'NotFound',
  )
}

/** The visitor presses the button named `name`. */
export function press(name: string) {
  return async ({ screen: { user } }: ScreenStep): Promise<void> => {
    await user.click(page.getByRole('button', { name }))
  }
}

/** For each event, the button the visitor presses to send it, by name. */
export function pressing(buttons: Readonly<Record<string, string>>): ScreenDriver['act'] {
  return Object.fromEntries(Object.entries(buttons).map(([event, name]) => [event, press(name)]))
}
