/**
 * Runs a model path of the trash or the history machine as the app provides it (its
 * `*.provide.ts`, the app's services and news store), with the real use cases on a news
 * repository whose every call waits until the path answers it.
 */
import { Container, ContainerModule } from 'inversify'
import type { AnyActorRef, AnyEventObject, AnyMachineSnapshot } from 'xstate'
import type { UseCases } from '@/application/use-cases'
import { DomainErrorException, unavailable, type DomainError } from '@/domain/domain-error'
import type { Mailer } from '@/domain/ports/mailer.port'
import type { NewsRepository } from '@/domain/ports/news-repository.port'
import { PORTS, USE_CASES, useCasesModule } from '@/composition/core.module'
import { createAppServices, type AppEffects, type AppServices } from '@/ui/shared/app-services'
import type { ToastParams } from '@/ui/shared/machine-effects'
import {
  eventName,
  outcomeOf,
  settle,
  stateName,
  type CoverageRecorder,
  type Model,
  type ModelPath,
} from './model-harness'

export type RecoveryOperation = 'trash' | 'restore' | 'revisions' | 'restoreRevision'

/** The repository operation behind each use case the two machines invoke (by actor name). */
const OPERATION_OF: Readonly<Record<string, RecoveryOperation>> = {
  listTrash: 'trash',
  restoreNews: 'restore',
  listRevisions: 'revisions',
  restoreRevision: 'restoreRevision',
}

export interface RepositoryCall {
  readonly operation: RecoveryOperation
  readonly input: unknown
  answered: boolean
  readonly resolve: (value: unknown) => void
  readonly reject: (error: unknown) => void
}

export class ScriptedRecoveryRepository {
  readonly calls: RepositoryCall[] = []

  readonly news: NewsRepository = {
    trash: (query) => this.call('trash', query),
    restore: (id) => this.call('restore', id),
    revisions: (id, { cursor }) => this.call('revisions', { id, cursor }),
    restoreRevision: (id, revision) => this.call('restoreRevision', { id, revision }),
    // The trash and the history never read or write posts any other way.
    list: () => this.refuse(),
    search: () => this.refuse(),
    get: () => this.refuse(),
    create: () => this.refuse(),
    update: () => this.refuse(),
    remove: () => this.refuse(),
    changes: () => this.refuse(),
  }

  pending(operation: RecoveryOperation): RepositoryCall[] {
    return this.calls.filter((call) => !call.answered && call.operation === operation)
  }

  /** Answers the oldest open call of `operation`, as the path's outcome says. */
  answer(
    operation: RecoveryOperation,
    outcome: { ok: true; value: unknown } | { ok: false; error: DomainError },
  ): void {
    const [call] = this.pending(operation)
    if (call === undefined) throw new Error(`the machine made no ${operation} call to answer`)
    call.answered = true
    if (outcome.ok) call.resolve(outcome.value)
    else call.reject(new DomainErrorException(outcome.error))
  }

  private call<T>(operation: RecoveryOperation, input: unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.calls.push({
        operation,
        input,
        answered: false,
        resolve: (value) => resolve(value as T),
        reject,
      })
    })
  }

  private refuse(): Promise<never> {
    return Promise.reject(new DomainErrorException(unavailable()))
  }
}

function scriptedUseCasesOn(repository: ScriptedRecoveryRepository): UseCases {
  const mailer: Mailer = { send: () => Promise.reject(new DomainErrorException(unavailable())) }
  const container = new Container()
  container.load(
    new ContainerModule(({ bind }) => {
      bind(PORTS.newsRepository).toConstantValue(repository.news)
      bind(PORTS.mailer).toConstantValue(mailer)
    }),
    useCasesModule,
  )
  return container.get(USE_CASES)
}

/** Where a machine asked to go. */
export type Navigation = Parameters<AppEffects['navigate']>[0]

export interface RecoveryRig {
  readonly repository: ScriptedRecoveryRepository
  readonly services: AppServices
  readonly toasts: ToastParams[]
  readonly navigations: Navigation[]
}

export interface RecoveryStep {
  readonly event: AnyEventObject
  readonly snapshot: AnyMachineSnapshot
  /** The toasts and navigations of this step only. */
  readonly toasts: readonly ToastParams[]
  readonly navigations: readonly Navigation[]
  readonly rig: RecoveryRig
}

/** Spec checks by state name. */
export type RecoveryChecks = Readonly<Record<string, (step: RecoveryStep) => void>>

/**
 * Takes each step of the path: sends the visitor's events, answers the use cases as the path
 * says, and after each step expects the machine in the state and with the context the model
 * reached, then runs the checks for that state.
 */
export async function runRecoveryPath(
  model: Model,
  path: ModelPath,
  coverage: CoverageRecorder,
  start: (rig: RecoveryRig) => AnyActorRef,
  checks: RecoveryChecks,
): Promise<void> {
  const repository = new ScriptedRecoveryRepository()
  const toasts: ToastParams[] = []
  const navigations: Navigation[] = []
  const services = createAppServices(
    scriptedUseCasesOn(repository),
    { showToast: (params) => toasts.push(params), navigate: (to) => navigations.push(to) },
    { inspect: coverage.inspect },
  )
  const rig: RecoveryRig = { repository, services, toasts, navigations }
  const actor = start(rig)
  let seen = { toasts: 0, navigations: 0 }
  try {
    for (const [index, step] of path.steps.entries()) {
      const label = `step ${index}, ${eventName(model, step.event)}`
      if (index > 0) {
        const outcome = outcomeOf(model.machine, step.event)
        if (outcome === undefined) {
          actor.send(step.event)
        } else {
          const operation = OPERATION_OF[outcome.src]
          if (operation === undefined) throw new Error(`no repository call behind ${outcome.src}`)
          repository.answer(operation, outcome)
        }
      }
      await settle()
      const snapshot = actor.getSnapshot() as AnyMachineSnapshot
      expect(snapshot.value, label).toEqual(step.state.value)
      expect(snapshot.context, label).toEqual(step.state.context)
      checks[stateName(snapshot.value)]?.({
        event: step.event,
        snapshot,
        toasts: toasts.slice(seen.toasts),
        navigations: navigations.slice(seen.navigations),
        rig,
      })
      seen = { toasts: toasts.length, navigations: navigations.length }
    }
  } finally {
    actor.stop()
    services.store.stop()
  }
}
