import { createActor, fromPromise, waitFor } from 'xstate'
import type { NewsDraft, NewsItem } from '@/domain/news-item.entity'
import { checkFields } from '@/domain/rules/field-rule'
import { NEWS_RULES } from '@/domain/rules/news-item.rules'
import { newsFormMachine, type CreateRequest } from '@/ui/features/news-form/news-form.machine'
import { provideNewsForm } from '@/ui/features/news-form/news-form.provide'
import { fieldErrorsOf } from '@/ui/shared/machine-effects'
import { unavailable, type DomainError } from '@/domain/domain-error'
import { NOTICES } from '@/ui/shared/notices'
import {
  actorOf,
  expectFormKept,
  expectFormSent,
  formEffects,
  pendingArgs,
  runPath,
  type StateChecks,
} from './machine-rig'
import {
  CoverageRecorder,
  transitionPaths,
  payload,
  itTakesEachPath,
  expectCoverage,
} from './model-harness'
import {
  CREATED,
  HARBOUR,
  HARBOUR_RESTORED,
  newsFormModel,
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
      expect(rig.news.pending('update')).toEqual([])
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
      expectFormKept(effects, error, NOTICES.createFailed)
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
    expectFormSent(effects, NOTICES.created)
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
      expect(effects.toasts).toEqual([])
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
  itTakesEachPath(model, transitionPaths(model), async (path) => {
    await runPath(
      model,
      path,
      coverage,
      actorOf(model, coverage, (services, rig) =>
        provideNewsForm(services).provide(formEffects(rig)),
      ),
      checks,
    )
  })
})

describe('news form machine, both forms together', () => {
  it('visits every state and takes every transition', () => expectCoverage(coverage))
})

// The models send one key and the loaded revision with every submission; what the form does
// with another key, other values or another revision is told here.
describe('news form machine, beyond the model', () => {
  it('sends one idempotency key per submission and the same key when the same post is retried', async () => {
    const calls: CreateRequest[] = []
    const answers = [unavailable(), unavailable(), undefined]
    const createNews = fromPromise<NewsItem, CreateRequest>(async ({ input }) => {
      calls.push(input)
      const error = answers.shift()
      if (error !== undefined) throw error
      return CREATED
    })
    const actor = createActor(newsFormMachine.provide({ actors: { createNews } }), {
      input: {},
    }).start()
    actor.send({ type: 'form.submit', values: VALID_DRAFT, idempotencyKey: 'key-1' })
    await waitFor(actor, (s) => s.matches('editing'))
    // A retry of the same post after a failure (a timeout, say) reuses the key.
    actor.send({ type: 'form.submit', values: VALID_DRAFT, idempotencyKey: 'key-2' })
    await waitFor(actor, (s) => s.matches('editing'))
    // Other values are another submission, with its own key.
    const changed = { ...VALID_DRAFT, title: 'Harbour reopens at dawn' }
    actor.send({ type: 'form.submit', values: changed, idempotencyKey: 'key-3' })
    await waitFor(actor, (s) => s.status === 'done')

    expect(calls).toEqual([
      { draft: VALID_DRAFT, idempotencyKey: 'key-1' },
      { draft: VALID_DRAFT, idempotencyKey: 'key-1' },
      { draft: changed, idempotencyKey: 'key-3' },
    ])
  })

  it('hands the store an edit of the revision the form showed, not of the one it loaded', async () => {
    const edits: unknown[] = []
    const actor = createActor(
      newsFormMachine.provide({
        actors: { getNewsItem: fromPromise<NewsItem, string>(async () => HARBOUR) },
        actions: { requestEdit: (_, params) => void edits.push(params) },
      }),
      { input: { id: HARBOUR._id } },
    ).start()
    await waitFor(actor, (s) => s.matches('editing'))
    actor.send({ type: 'form.submit', values: VALID_DRAFT, revision: HARBOUR.revision + 4 })
    expect(edits).toEqual([
      { id: HARBOUR._id, changes: VALID_DRAFT, condition: { ifRevision: [HARBOUR.revision + 4] } },
    ])
  })
})
