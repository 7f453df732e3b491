/**
 * Runs a model path of the trash or the history machine through the rendered app in jsdom:
 * the visitor's events become clicks, and each use case's answer is let through, made to
 * fail, or made to conflict on the in-memory adapters, as the path says.
 */
import { render, waitFor } from '@testing-library/react'
import userEvent, { type UserEvent } from '@testing-library/user-event'
import type { AnyEventObject, AnyMachineSnapshot, StateValue } from 'xstate'
import { createMemoryApp, type MemoryApp } from '../support/memory-app'
import type { DomainError } from '@/domain/domain-error'
import type { NewsItem } from '@/domain/news-item.entity'
import { NewsWireApp } from '@/ui/app/news-wire-app'
import type { Inspect } from '@/ui/shared/inspection'
import {
  eventName,
  outcomeOf,
  stateName,
  type CoverageRecorder,
  type Model,
  type ModelPath,
} from './model-harness'
import type { NewsOperation } from './machine-rig'
import { Gate } from './screen-rig'

export interface RecoveryScreen {
  readonly user: UserEvent
  readonly app: MemoryApp
  /** Holds the news repository's calls until a step lets them through. */
  readonly news: Gate<NewsOperation>
}

export interface RecoveryScreenStep {
  readonly event: AnyEventObject
  /** The model's snapshot after the step. */
  readonly expected: AnyMachineSnapshot
  readonly screen: RecoveryScreen
}

export interface RecoveryScreenDriver {
  readonly url: string
  readonly seed: readonly NewsItem[]
  /** What the site holds before the page opens, arranged through the repository. */
  readonly arrange: (app: MemoryApp) => Promise<void>
  /**
   * Lets the held call of a use case through as the path's outcome says, by actor name: an
   * outage fails it; other errors are made real on the site first (a restore elsewhere, a purge).
   */
  readonly answer: Readonly<
    Record<string, (screen: RecoveryScreen, error: DomainError | undefined) => Promise<void>>
  >
  readonly act: Readonly<Record<string, (step: RecoveryScreenStep) => Promise<void>>>
  readonly see: Readonly<Record<string, (step: RecoveryScreenStep) => Promise<void>>>
}

/** Watches one machine of the rendered app: its latest state, and the coverage. */
function watch(coverage: CoverageRecorder, machineId: string) {
  let latest: StateValue | undefined
  const inspect: Inspect = (event) => {
    coverage.inspect(event)
    if (event.type !== '@xstate.snapshot') return
    const snapshot = event.snapshot as AnyMachineSnapshot
    if (snapshot.machine?.id === machineId) latest = snapshot.value
  }
  return { inspect, value: () => latest }
}

export async function runRecoveryScreenPath(
  model: Model,
  path: ModelPath,
  driver: RecoveryScreenDriver,
  coverage: CoverageRecorder,
): Promise<void> {
  let minute = 0
  const app = createMemoryApp({
    seed: driver.seed,
    now: () => new Date(Date.UTC(2025, 2, 5, 12, minute++)),
  })
  await driver.arrange(app)
  const news = new Gate(app.news.faults)
  const watcher = watch(coverage, model.machine.id)
  window.history.replaceState(null, '', driver.url)
  const screen: RecoveryScreen = { user: userEvent.setup(), app, news }
  const view = render(<NewsWireApp useCases={app.useCases} inspect={watcher.inspect} />)
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
          const answer = driver.answer[outcome.src]
          if (answer === undefined) throw new Error(`${label}: no adapter behind ${outcome.src}`)
          await answer(screen, outcome.ok ? undefined : outcome.error)
        }
      }
      await waitFor(() => expect(watcher.value(), label).toEqual(step.state.value))
      await driver.see[stateName(step.state.value)]?.(screenStep)
    }
  } finally {
    news.close()
    view.unmount()
  }
}
