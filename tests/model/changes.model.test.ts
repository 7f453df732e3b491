import { createActor, fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate'
import {
  conflict,
  notFound,
  stale,
  unavailable,
  validationFailed,
  type DomainError,
} from '@/domain/domain-error'
import { INVALID_EDITOR_MESSAGE } from '@/domain/editor'
import type { RecentChange } from '@/domain/news-change.entity'
import type { ChangePage, ChangesQuery } from '@/domain/ports/news-repository.port'
import {
  canUndo,
  changesMachine,
  type ChangesContext,
  type ChangesEvent,
} from '@/ui/features/changes/changes.machine'
import type { UndoChangeInput } from '@/application/undo-change.use-case'
import type { ChangeUndo } from '@/domain/rules/undo.rules'
import { CHANGES_NOTICES } from '@/ui/features/changes/changes.texts'
import type { ToastParams } from '@/ui/shared/machine-effects'
import { NOTICES } from '@/ui/shared/notices'
import {
  CoverageRecorder,
  describePath,
  formatCoverage,
  outcomeOf,
  settle,
  stateName,
  transitionPaths,
  type Model,
} from './model-harness'
import { RETRY_AFTER_SECONDS, WRITE_LIMIT } from './models'

const change = (seq: number, id: string, kind: RecentChange['kind'], revision: number) => ({
  seq,
  id,
  kind,
  revision,
  at: new Date(Date.UTC(2026, 0, 1, 12, seq)).toISOString(),
  editor: 'bad0bad0ba',
  title: `Post ${id}, version ${revision}`,
})

/** The vandal's edit of the pier post is the newest change of it: it can be undone. */
const VANDAL_EDIT: RecentChange = change(9, 'pier', 'edited', 2)
const FIRST_PAGE: ChangePage = {
  items: [VANDAL_EDIT, change(8, 'ferry', 'created', 1), change(7, 'pier', 'created', 1)],
  next: 'page-2',
}
const LAST_PAGE: ChangePage = { items: [change(6, 'dock', 'deleted', 2)] }
/** What the live stream told of, on top of the first page when it is fetched again. */
const NEWER: RecentChange = change(10, 'quay', 'created', 1)
const REFRESHED: ChangePage = { items: [NEWER, ...FIRST_PAGE.items], next: 'page-2' }

const model: Model = {
  machine: changesMachine,
  input: {},
  events: () => [
    { type: 'changes.retry' },
    { type: 'changes.loadMore' },
    {
      type: 'changes.heard',
      change: { seq: NEWER.seq, id: NEWER.id, kind: NEWER.kind, revision: 1, at: NEWER.at },
    },
    { type: 'changes.undo', seq: VANDAL_EDIT.seq },
    { type: 'changes.reload' },
  ],
  answers: {
    listChanges: {
      done: (snapshot: AnyMachineSnapshot) => [
        snapshot.matches('loadingMore')
          ? LAST_PAGE
          : snapshot.matches('refreshing')
            ? REFRESHED
            : FIRST_PAGE,
      ],
      errors: [unavailable(), validationFailed({ editor: INVALID_EDITOR_MESSAGE })],
    },
    undoChange: {
      done: () => [{ kind: 'revert', toRevision: 1 }],
      errors: [
        stale({
          _id: 'pier',
          title: 'Fixed',
          body: 'b',
          author: 'a',
          createdAt: VANDAL_EDIT.at,
          updatedAt: VANDAL_EDIT.at,
          revision: 3,
        }),
        conflict('InTrash'),
        notFound(),
        WRITE_LIMIT,
        unavailable(),
      ],
    },
  },
  label: (event) => (event.type === 'changes.undo' ? `seq ${String(event.seq)}` : undefined),
}

/** The toast an undo's answer shows. */
function undoToast(event: AnyEventObject): ToastParams[] {
  if (event.type.startsWith('xstate.done.actor')) {
    return 'output' in event && 'kind' in (event.output as object)
      ? [{ kind: 'success', message: CHANGES_NOTICES.undone }]
      : []
  }
  const error = (event as { error?: DomainError }).error
  if (error === undefined || !event.type.startsWith('xstate.error.actor')) return []
  switch (error.code) {
    case 'Stale':
    case 'Conflict':
      return [{ kind: 'error', message: CHANGES_NOTICES.changedSince }]
    case 'NotFound':
      return [{ kind: 'error', message: CHANGES_NOTICES.purged }]
    case 'RateLimited':
      return [{ kind: 'error', message: NOTICES.rateLimited(RETRY_AFTER_SECONDS) }]
    default:
      return [{ kind: 'error', message: CHANGES_NOTICES.undoFailed }]
  }
}

interface Call {
  readonly src: string
  readonly input: unknown
  answered: boolean
  readonly resolve: (value: unknown) => void
  readonly reject: (error: unknown) => void
}

const coverage = new CoverageRecorder(changesMachine)
const paths = transitionPaths(model)

describe('recent changes machine, model-based', () => {
  it.each(paths.map((path) => [describePath(model, path), path] as const))(
    '%s',
    async (_, path) => {
      const calls: Call[] = []
      const toasts: ToastParams[] = []
      const scripted = <Output, Input>(src: string) =>
        fromPromise<Output, Input>(
          ({ input }) =>
            new Promise<Output>((resolve, reject) =>
              calls.push({
                src,
                input,
                answered: false,
                resolve: (value) => resolve(value as Output),
                reject,
              }),
            ),
        )
      const machine = changesMachine.provide({
        actors: {
          listChanges: scripted<ChangePage, ChangesQuery>('listChanges'),
          undoChange: scripted<ChangeUndo, UndoChangeInput>('undoChange'),
        },
        actions: { showToast: (_, params) => void toasts.push(params) },
      })
      const actor = createActor(machine, { input: {}, inspect: coverage.inspect }).start()
      let seen = 0
      try {
        for (const [index, step] of path.steps.entries()) {
          if (index > 0) {
            const outcome = outcomeOf(changesMachine, step.event)
            if (outcome === undefined) actor.send(step.event as ChangesEvent)
            else {
              // The newest open call of that use case: a refresh begun again abandons the older.
              const call = calls.filter((each) => each.src === outcome.src && !each.answered).at(-1)
              if (call === undefined) throw new Error(`no open ${outcome.src} call`)
              call.answered = true
              if (outcome.ok) call.resolve(outcome.value)
              else call.reject(outcome.error)
            }
          }
          await settle()
          const snapshot = actor.getSnapshot()
          const label = `step ${index}: ${stateName(snapshot.value)}`
          expect(snapshot.value, label).toEqual(step.state.value)
          expect(snapshot.context, label).toEqual(step.state.context)
          const context = snapshot.context as ChangesContext
          const open = calls.filter((each) => !each.answered)
          const stepToasts = toasts.slice(seen)
          seen = toasts.length
          // The spec of each state.
          if (snapshot.matches('loading') || snapshot.matches('refreshing')) {
            expect(open.at(-1)?.input, label).toEqual({})
          }
          if (snapshot.matches('loadingMore')) {
            expect(open.at(-1)?.input, label).toEqual({ cursor: 'page-2' })
          }
          if (snapshot.matches('undoing')) {
            expect(open.at(-1)?.input, label).toEqual({ id: 'pier', kind: 'edited', revision: 2 })
            expect(context.undoing).toBe(VANDAL_EDIT.seq)
          } else {
            expect(context.undoing).toBeUndefined()
          }
          const fromUndo = index > 0 && path.steps[index - 1]?.state.matches('undoing') === true
          expect(stepToasts, label).toEqual(fromUndo ? undoToast(step.event) : [])
          // Newest first, each change once; the newer change on top once it was fetched.
          const seqs = context.items.map((each) => each.seq)
          expect(seqs).toEqual([...new Set(seqs)].sort((a, b) => b - a))
          if (snapshot.matches('ready')) {
            expect(
              context.items.filter((each) => canUndo(context.items, each)).map((each) => each.seq),
            ).toEqual(seqs.filter((seq) => seq !== 7))
          }
        }
      } finally {
        actor.stop()
      }
    },
  )

  it('visits every state and takes every transition', () => {
    const report = coverage.report()
    console.info(formatCoverage(changesMachine, report))
    expect(report.states.missed).toEqual([])
    expect(report.transitions.missed).toEqual([])
    expect(report.transitions.taken).toBe(report.transitions.defined)
  })
})
