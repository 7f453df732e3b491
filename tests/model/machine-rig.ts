/**
 * Runs a model path against a machine as the app provides it (its `*.provide.ts`, the app's
 * services and news store), with the real use cases on in-memory ports whose every call waits
 * until the path answers it (`faulty(...).faults.script()`).
 */
import {
  createActor,
  type AnyActorRef,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
} from 'xstate'
import type { ScreenServices } from '@/ui/shared/app-context'
import { createAppServices } from '@/ui/shared/app-services'
import { provideNewsStore } from '@/ui/store/news-store.provide'
import type { NavigateParams, ToastParams } from '@/ui/shared/machine-effects'
import {
  CoverageRecorder,
  eventName,
  expectCoverage,
  itTakesEachPath,
  outcomeOf,
  settle,
  stateName,
  transitionPaths,
  type Model,
  type ModelPath,
} from './model-harness'
import type { DomainError } from '@/domain/domain-error'
import type { NewsRepository } from '@/domain/ports/news-repository.port'
import type { OperationOf, Outcome, PortFaults } from '../support/faulty-port'
import { createMemoryApp } from '../support/memory-app'
import { failureToast } from './models'

export type NewsOperation = OperationOf<NewsRepository>
export type Operation = NewsOperation | 'send'

/** The port operation behind each use case the machines invoke (by actor name). */
export const OPERATION_OF: Readonly<Record<string, Operation>> = {
  listNews: 'list',
  searchNews: 'search',
  getNewsItem: 'get',
  createNews: 'create',
  editNews: 'update',
  deleteNews: 'remove',
  restoreNews: 'restore',
  listRevisions: 'revisions',
  restoreRevision: 'restoreRevision',
  listTrash: 'trash',
  sendContactMessage: 'send',
}

export interface Effects {
  readonly toasts: ToastParams[]
  readonly navigations: NavigateParams[]
  /** How often a form was told to reset. */
  resets: number
  /** How often a form was told to forget its draft. */
  clears: number
}

export interface Rig {
  /** The news repository's calls, each waiting for the path's answer. */
  readonly news: PortFaults<NewsOperation>
  /** The mailer's calls, likewise. */
  readonly mail: PortFaults<'send'>
  /** The app's services and its running news store, as a screen's machine is provided with. */
  readonly services: ScreenServices
  readonly effects: Effects
  readonly coverage: CoverageRecorder
}

export interface StepContext {
  /** The event of this step; for the first, `xstate.init`. */
  readonly event: AnyEventObject
  readonly snapshot: AnyMachineSnapshot
  /** The snapshot before this step; for the first, the same. */
  readonly previous: AnyMachineSnapshot
  /** What the effects did during this step only. */
  readonly effects: Effects
  readonly rig: Rig
}

/** Spec checks for the snapshots in a state, by the state's name: `loading`, `editing`. */
export type StateChecks = Readonly<Record<string, (step: StepContext) => void>>

/** Starts the actor under test; for the news store, the one the services already run. */
export type Start = (rig: Rig) => AnyActorRef

/** A form's own effects, counted in the rig: resetting its fields, forgetting its draft. */
export function formEffects(rig: Rig) {
  return {
    actions: {
      resetForm: () => void (rig.effects.resets += 1),
      clearDraft: () => void (rig.effects.clears += 1),
    },
  }
}

/** A form sent: the toast says so, and its fields and its draft are emptied, once each. */
export function expectFormSent(effects: Effects, message: string): void {
  expect(effects.toasts).toEqual([{ kind: 'success', message }])
  expect(effects.resets).toBe(1)
  expect(effects.clears).toBe(1)
}

/**
 * A form whose write failed keeps what was typed and its draft (docs/spec-deviations.md,
 * decision 4); the toast says when to try again for the write limit, else `otherwise`.
 */
export function expectFormKept(effects: Effects, error: DomainError, otherwise: string): void {
  expect(effects.toasts).toEqual([failureToast(error, otherwise)])
  expect(effects.resets).toBe(0)
  expect(effects.clears).toBe(0)
}

/** Starts the machine `provide` makes of the rig, with the model's input, watched by `coverage`. */
export function actorOf(
  model: Model,
  coverage: CoverageRecorder,
  provide: (services: ScreenServices, rig: Rig) => AnyStateMachine,
): Start {
  return (rig) =>
    createActor(provide(rig.services, rig), {
      input: model.input ?? {},
      inspect: coverage.inspect,
    }).start()
}

function effectsSince(effects: Effects, before: Effects): Effects {
  return {
    toasts: effects.toasts.slice(before.toasts.length),
    navigations: effects.navigations.slice(before.navigations.length),
    resets: effects.resets - before.resets,
    clears: effects.clears - before.clears,
  }
}

function copy(effects: Effects): Effects {
  return {
    toasts: [...effects.toasts],
    navigations: [...effects.navigations],
    resets: effects.resets,
    clears: effects.clears,
  }
}

/**
 * The arguments of the calls of `operation` still waiting for an answer, oldest first, each
 * without the optional arguments left out at its end.
 */
export function pendingArgs<Name extends string>(
  faults: PortFaults<Name>,
  operation: Name,
): unknown[][] {
  return faults.pending(operation).map((call) => {
    const args = [...call.args]
    while (args.length > 0 && args.at(-1) === undefined) args.pop()
    return args
  })
}

export function createRig(coverage: CoverageRecorder): Rig {
  const app = createMemoryApp()
  app.news.faults.script()
  app.mailer.faults.script()
  const effects: Effects = { toasts: [], navigations: [], resets: 0, clears: 0 }
  const services = createAppServices(app.useCases, {
    showToast: (params) => effects.toasts.push(params),
    navigate: (params) => effects.navigations.push(params),
  })
  // The store reports to the recorder too, which counts only the machine under test.
  const store = createActor(provideNewsStore(services), {
    input: {},
    inspect: coverage.inspect,
  }).start()
  return {
    news: app.news.faults,
    mail: app.mailer.faults,
    services: { ...services, store },
    effects,
    coverage,
  }
}

/**
 * Answers an open call of `operation` as the path's outcome says: by default the newest, since
 * a transition may abandon a call and make it again (the list's reload), and the abandoned
 * call's answer would reach no one.
 */
function answer(
  rig: Rig,
  operation: Operation,
  outcome: Outcome,
  which: 'newest' | 'oldest',
): void {
  if (operation === 'send') rig.mail.answer(operation, outcome, which)
  else rig.news.answer(operation, outcome, which)
}

/**
 * Takes each step of the path: sends the visitor's events, answers the use cases as the path
 * says, and after each step expects the running machine in the state and with the context
 * the model reached, then runs the spec checks for that state.
 */
export async function runPath(
  model: Model,
  path: ModelPath,
  coverage: CoverageRecorder,
  start: Start,
  checks: StateChecks = {},
  /** Which open call of an operation an outcome answers. */
  which: 'newest' | 'oldest' = 'newest',
): Promise<void> {
  const rig = createRig(coverage)
  let before = copy(rig.effects)
  const actor = start(rig)
  let previous = actor.getSnapshot() as AnyMachineSnapshot
  try {
    for (const [index, step] of path.steps.entries()) {
      const label = `step ${index}, ${eventName(model, step.event)}`
      if (index > 0) {
        const outcome = outcomeOf(model.machine, step.event)
        if (outcome === undefined) {
          actor.send(step.event)
        } else {
          const operation = OPERATION_OF[outcome.src]
          if (operation === undefined) throw new Error(`no port behind ${outcome.src}`)
          answer(rig, operation, outcome, which)
        }
      }
      await settle()
      const snapshot = actor.getSnapshot() as AnyMachineSnapshot
      expect(snapshot.value, label).toEqual(step.state.value)
      expect(snapshot.context, label).toEqual(step.state.context)
      checks[stateName(snapshot.value)]?.({
        event: step.event,
        snapshot,
        previous,
        effects: effectsSince(rig.effects, before),
        rig,
      })
      before = copy(rig.effects)
      previous = snapshot
    }
  } finally {
    actor.stop()
    rig.services.store.stop()
  }
}

export interface ModelSuite {
  /** Spec checks for the snapshots in each state. */
  readonly checks?: StateChecks
  /** Which open call of an operation an outcome answers. */
  readonly which?: 'newest' | 'oldest'
  /** More tests of the same machine, read off the model's paths. */
  readonly also?: (paths: readonly ModelPath[]) => void
}

/**
 * The model-based suite of one machine: every path the model gives, run against the machine as
 * `provide` makes it, and then that the paths visited every state and took every transition.
 */
export function describeModelPaths(
  title: string,
  model: Model,
  provide: (services: ScreenServices, rig: Rig) => AnyStateMachine,
  { checks, which, also }: ModelSuite = {},
): void {
  const coverage = new CoverageRecorder(model.machine)
  const paths = transitionPaths(model)
  describe(title, () => {
    itTakesEachPath(model, paths, (path) =>
      runPath(model, path, coverage, actorOf(model, coverage, provide), checks, which),
    )
    also?.(paths)
    it('visits every state and takes every transition', () => expectCoverage(coverage))
  })
}
