/**
 * Runs a model path through the rendered app in jsdom: the visitor's events become clicks and
 * typing, each use case's answer is let through (or made to fail) on the in-memory adapters,
 * and after each step the screen must show what its state means.
 */
import { configure, render, screen, waitFor } from '@testing-library/react'
import userEvent, { type UserEvent } from '@testing-library/user-event'
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine, StateValue } from 'xstate'
import type { PortFaults } from '../support/faulty-port'
import { createMemoryApp, type MemoryApp } from '../support/memory-app'
import type { NewsItem } from '@/domain/news-item.entity'
import { NewsWireApp } from '@/ui/app/news-wire-app'
import { memoryDraftStorage } from '@/ui/shared/draft-storage'
import type { Inspect } from '@/ui/shared/inspection'
import type { CoverageRecorder } from './model-harness'
import {
  eventName,
  outcomeOf,
  stateName,
  transitionPaths,
  type Model,
  type ModelPath,
} from './model-harness'
import { OPERATION_OF, type NewsOperation, type Operation } from './machine-rig'

// Screens other than '/' and react-toastify load lazily; the first import takes a moment.
configure({ asyncUtilTimeout: 4000 })

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
class Watcher {
  private readonly latest = new Map<string, AnyMachineSnapshot>()
  readonly inspect: Inspect

  constructor(readonly coverage: CoverageRecorder) {
    this.inspect = (event) => {
      coverage.inspect(event)
      const snapshot =
        event.type === '@xstate.snapshot' ? (event.snapshot as AnyMachineSnapshot) : undefined
      if (snapshot?.machine !== undefined) this.latest.set(snapshot.machine.id, snapshot)
    }
  }

  value(machineId: string): StateValue | undefined {
    return this.latest.get(machineId)?.value
  }
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
 * other failure, which these paths take; tests/ui checks the 429 texts on screen.
 */
function writeLimited(event: AnyEventObject): boolean {
  return (event as { error?: { code?: string } }).error?.code === 'RateLimited'
}

export async function runScreenPath(
  model: Model,
  path: ModelPath,
  driver: ScreenDriver,
  coverage: CoverageRecorder,
  machine: AnyStateMachine = model.machine,
): Promise<void> {
  const { url, seed } = driver.open(path)
  const app = createMemoryApp({ seed, now: () => new Date('2025-03-05T12:00:00.000Z') })
  const news = new Gate(app.news.faults)
  const mail = new Gate(app.mailer.faults)
  const watcher = new Watcher(coverage)
  window.history.replaceState(null, '', url)
  const rendered: Screen = { user: userEvent.setup(), app, news, mail }
  const view = render(
    <NewsWireApp useCases={app.useCases} inspect={watcher.inspect} drafts={memoryDraftStorage()} />,
  )
  try {
    for (const [index, step] of path.steps.entries()) {
      const label = `step ${index}, ${eventName(model, step.event)}`
      const screenStep = { event: step.event, expected: step.state, screen: rendered }
      if (index > 0) {
        const outcome = outcomeOf(model.machine, step.event)
        if (outcome === undefined) {
          const act = driver.act[step.event.type]
          if (act === undefined) throw new Error(`${label}: the screen cannot send this event`)
          await act(screenStep)
        } else {
          const operation: Operation | undefined = OPERATION_OF[outcome.src]
          if (operation === undefined) throw new Error(`${label}: no adapter behind ${outcome.src}`)
          // A missing post is one the adapters do not hold; a stale write is one whose post
          // someone else saved meanwhile; any other failure is an outage.
          const code = outcome.ok ? undefined : outcome.error.code
          if (code === 'Stale') await changeMeanwhile(app, driver.changedMeanwhile ?? seed)
          const fails = code !== undefined && code !== 'NotFound' && code !== 'Stale'
          if (operation === 'send') mail.open(fails ? 'send' : undefined)
          else news.open(fails ? operation : undefined)
        }
      }
      await waitFor(() => expect(watcher.value(machine.id), label).toEqual(step.state.value))
      await driver.see[stateName(step.state.value)]?.(screenStep)
    }
  } finally {
    news.close()
    mail.close()
    view.unmount()
  }
}

/** Saves the post past the faults, as another visitor would, while the visitor's write waits. */
async function changeMeanwhile(app: MemoryApp, post: string | readonly NewsItem[]) {
  const id = typeof post === 'string' ? post : post[0]?._id
  if (id === undefined) throw new Error('a stale write needs a post to change')
  await app.journal.update(id, CHANGE_MEANWHILE)
}

// ---------------------------------------------------------------------------------------------
// What the visitor sees

/** A toast as react-toastify shows it. */
export async function seeToast(message: string): Promise<void> {
  await findToast(message)
}

/** The toast that shows `message`, to look inside it (its button). */
export async function findToast(message: string): Promise<HTMLElement> {
  const text = await screen.findByText(message)
  const toast = text.closest<HTMLElement>('.Toastify__toast')
  expect(toast).not.toBeNull()
  return toast as HTMLElement
}

export async function seeLocation(pathname: string): Promise<void> {
  await waitFor(() => expect(window.location.pathname).toBe(pathname))
}

/** Replaces what a field holds, as a visitor selecting it all and pasting. */
export async function retype(user: UserEvent, label: string, value: string): Promise<void> {
  const field = screen.getByLabelText(label)
  await user.clear(field)
  if (value !== '') {
    await user.click(field)
    await user.paste(value)
  }
}

/** `count` posts, newest first: post-1 is the newest. */
export function manyPosts(count: number): NewsItem[] {
  return Array.from({ length: count }, (_, index) => ({
    _id: `post-${index + 1}`,
    title: `Post number ${index + 1}`,
    body: `Body of post ${index + 1}.`,
    author: `Author ${index + 1}`,
    createdAt: new Date(Date.UTC(2025, 0, 31, 12) - index * 86_400_000).toISOString(),
    updatedAt: new Date(Date.UTC(2025, 0, 31, 12) - index * 86_400_000).toISOString(),
    revision: 1,
  }))
}
