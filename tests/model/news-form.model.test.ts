import { createActor } from 'xstate'
import type { NewsDraft } from '@/domain/news-item.entity'
import { checkFields } from '@/domain/rules/field-rule'
import { NEWS_RULES } from '@/domain/rules/news-item.rules'
import { newsFormMachine } from '@/ui/features/news-form/news-form.machine'
import { provideNewsForm } from '@/ui/features/news-form/news-form.provide'
import { fieldErrorsOf } from '@/ui/shared/machine-effects'
import type { DomainError } from '@/domain/domain-error'
import { NOTICES } from '@/ui/shared/notices'
import { pendingArgs, runPath, type StateChecks } from './machine-rig'
import {
  CoverageRecorder,
  describePath,
  formatCoverage,
  transitionPaths,
  payload,
} from './model-harness'
import {
  HARBOUR,
  HARBOUR_RESTORED,
  newsFormModel,
  RETRY_AFTER_SECONDS,
  SUBMISSION_KEY,
  VALID_DRAFT,
} from './models'

const coverage = new CoverageRecorder(newsFormMachine)
const scenarios = [
  { name: 'add form', model: newsFormModel() },
  { name: 'edit form', model: newsFormModel(HARBOUR._id) },
]

const checks: StateChecks = {
  loading: ({ rig }) => {
    expect(pendingArgs(rig.news, 'get')).toEqual([[HARBOUR._id]])
  },
  failed: ({ effects }) => expect(effects.toasts).toEqual([]),
  notAvailable: ({ effects }) => {
    expect(effects.toasts).toEqual([{ kind: 'error', message: NOTICES.notAvailable }])
    expect(effects.navigations).toEqual([{ to: '/', replace: true }])
  },
  editing: ({ event, snapshot, previous, rig, effects }) => {
    if (previous.matches('restoring')) {
      // The post could not be brought back: the text stays, and the visitor is told.
      expect(effects.toasts).toEqual([{ kind: 'error', message: NOTICES.restoreFailed }])
      expect(effects.navigations).toEqual([])
      expect(snapshot.context.draft).toEqual(previous.context.draft)
    } else if ('values' in event) {
      // Refused before sending: each field says what is wrong.
      const values = payload<NewsDraft>(event, 'values')
      expect(snapshot.context.fieldErrors).toEqual(checkFields(NEWS_RULES, values))
      expect(rig.news.pending()).toEqual([])
    } else if (event.type.startsWith('xstate.done.')) {
      // The post to edit is loaded, and the store holds it for the form's initial values.
      expect(rig.services.store.getSnapshot().context.newsItem).toEqual(HARBOUR)
    } else if (event.type.startsWith('xstate.error.')) {
      // A failed post keeps what the visitor typed and shows the server's field messages.
      const error = payload<DomainError>(event, 'error')
      // The write limit says when to try again; any other failure says so in general.
      expect(effects.toasts).toEqual([
        {
          kind: 'error',
          message:
            error.code === 'RateLimited'
              ? NOTICES.rateLimited(RETRY_AFTER_SECONDS)
              : NOTICES.createFailed,
        },
      ])
      expect(effects.resets).toBe(0)
      expect(effects.clears).toBe(0)
      // A retry of the same submission carries the same key.
      expect(snapshot.context.idempotencyKey).toBe(SUBMISSION_KEY)
      expect(snapshot.context.draft).toEqual(previous.context.draft)
      expect(snapshot.context.fieldErrors).toEqual(fieldErrorsOf(error))
    } else {
      expect(snapshot.context.fieldErrors).toEqual({})
    }
  },
  submitting: ({ rig }) => {
    expect(pendingArgs(rig.news, 'create')).toEqual([
      [VALID_DRAFT, { idempotencyKey: SUBMISSION_KEY }],
    ])
  },
  created: ({ rig, effects }) => {
    expect(rig.news.calls.filter((call) => call.operation === 'create')).toHaveLength(1)
    expect(effects.toasts).toEqual([{ kind: 'success', message: NOTICES.created }])
    expect(effects.resets).toBe(1)
    expect(effects.clears).toBe(1)
    expect(effects.navigations).toEqual([{ to: '/', replace: true }])
  },
  restoring: ({ rig, snapshot }) => {
    // The deleted post comes back first; the text waits in the form's context meanwhile.
    expect(pendingArgs(rig.news, 'restore')).toEqual([[HARBOUR._id]])
    expect(snapshot.context.draft).toEqual(VALID_DRAFT)
    expect(rig.news.pending('update')).toEqual([])
  },
  submitted: ({ rig, effects, previous }) => {
    if (previous.matches('restoring')) {
      // Restored: the edit is saved onto the version the restore made, and the article shows it.
      expect(effects.navigations).toEqual([{ to: `/news/${HARBOUR._id}` }])
      expect(rig.services.store.getSnapshot().context.newsItem).toEqual({
        ...HARBOUR_RESTORED,
        ...VALID_DRAFT,
      })
      expect(pendingArgs(rig.news, 'update')).toEqual([
        [HARBOUR._id, VALID_DRAFT, { ifRevision: [HARBOUR_RESTORED.revision] }],
      ])
      return
    }
    // Editing goes to the article at once; the store shows the new values and saves them.
    expect(effects.navigations).toEqual([{ to: `/news/${HARBOUR._id}` }])
    expect(effects.toasts).toEqual([])
    const store = rig.services.store.getSnapshot()
    expect(store.context.newsItem).toEqual({ ...HARBOUR, ...VALID_DRAFT })
    expect(pendingArgs(rig.news, 'update')).toEqual([
      // The save replaces only the revision the form showed.
      [HARBOUR._id, VALID_DRAFT, { ifRevision: [HARBOUR.revision] }],
    ])
  },
}

describe.each(scenarios)('news form machine, model-based: $name', ({ model }) => {
  it.each(transitionPaths(model).map((path) => [describePath(model, path), path] as const))(
    '%s',
    async (_, path) => {
      await runPath(
        model,
        path,
        coverage,
        (rig) =>
          createActor(
            provideNewsForm(rig.services).provide({
              actions: {
                resetForm: () => void (rig.effects.resets += 1),
                clearDraft: () => void (rig.effects.clears += 1),
              },
            }),
            { input: model.input as { id?: string }, inspect: coverage.inspect },
          ).start(),
        checks,
      )
    },
  )
})

describe('news form machine, both forms together', () => {
  it('visits every state and takes every transition', () => {
    const report = coverage.report()
    console.info(formatCoverage(newsFormMachine, report))
    expect(report.states.missed).toEqual([])
    expect(report.transitions.missed).toEqual([])
  })
})
