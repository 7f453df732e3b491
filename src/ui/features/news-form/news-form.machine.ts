import { and, assign, setup } from 'xstate'
import type { NewsChanges, NewsDraft, NewsItem } from '@/domain/news-item.entity'
import { checkFields, hasErrors, type FieldErrors } from '@/domain/rules/field-rule'
import { NEWS_RULES } from '@/domain/rules/news-item.rules'
import {
  effectStubs,
  fieldErrorsOf,
  isNotFound,
  leaveForHome,
  stubUseCase,
} from '@/ui/shared/machine-effects'
import { NOTICES } from '@/ui/shared/notices'

export interface NewsFormInput {
  /** Present when editing an existing post. */
  readonly id?: string
}

export interface NewsFormContext {
  readonly id: string | undefined
  /** What the visitor last submitted. */
  readonly draft: NewsDraft
  /** Messages the last refused submit left, by field. */
  readonly fieldErrors: FieldErrors<string>
}

export type NewsFormEvent =
  { readonly type: 'form.submit'; readonly values: NewsDraft } | { readonly type: 'form.retry' }

export interface EditParams {
  readonly id: string
  readonly changes: NewsChanges
}

function invalidFields(event: NewsFormEvent): FieldErrors<string> {
  return event.type === 'form.submit' ? checkFields(NEWS_RULES, event.values) : {}
}

/**
 * The add and edit forms. Adding waits for the server; editing hands the change to the news
 * store and goes to the article at once (see docs/spec-deviations.md, decision 6).
 */
export const newsFormMachine = setup({
  types: {
    context: {} as NewsFormContext,
    events: {} as NewsFormEvent,
    input: {} as NewsFormInput,
  },
  actors: {
    getNewsItem: stubUseCase<NewsItem, string>(),
    createNews: stubUseCase<NewsItem, NewsDraft>(),
  },
  actions: {
    ...effectStubs,
    storeItem: (_, _item: NewsItem): void => undefined,
    /** Hands an edit to the news store, which saves it and reports the outcome. */
    requestEdit: (_, _params: EditParams): void => undefined,
    resetForm: (): void => undefined,
  },
  guards: {
    isEditing: ({ context }) => context.id !== undefined,
    isValid: ({ event }) => !hasErrors(invalidFields(event)),
    isNotFound: ({ event }) => 'error' in event && isNotFound(event.error),
  },
}).createMachine({
  id: 'newsForm',
  context: ({ input }) => ({
    id: input.id,
    draft: { title: '', body: '', author: '' },
    fieldErrors: {},
  }),
  initial: 'opening',
  states: {
    opening: {
      always: [{ guard: 'isEditing', target: 'loading' }, { target: 'editing' }],
    },
    loading: {
      invoke: {
        src: 'getNewsItem',
        input: ({ context }) => context.id ?? '',
        onDone: {
          target: 'editing',
          actions: { type: 'storeItem', params: ({ event }) => event.output },
        },
        onError: [{ guard: 'isNotFound', target: 'notAvailable' }, { target: 'failed' }],
      },
    },
    failed: {
      on: { 'form.retry': { target: 'loading' } },
    },
    notAvailable: {
      type: 'final',
      entry: leaveForHome,
    },
    editing: {
      on: {
        'form.submit': [
          {
            guard: and(['isValid', 'isEditing']),
            target: 'submitted',
            actions: [
              {
                type: 'requestEdit',
                params: ({ context, event }) => ({ id: context.id ?? '', changes: event.values }),
              },
              {
                type: 'navigate',
                params: ({ context }) => ({ to: `/news/${encodeURIComponent(context.id ?? '')}` }),
              },
            ],
          },
          {
            guard: 'isValid',
            target: 'submitting',
            actions: assign({ draft: ({ event }) => event.values, fieldErrors: {} }),
          },
          { actions: assign({ fieldErrors: ({ event }) => invalidFields(event) }) },
        ],
      },
    },
    submitting: {
      invoke: {
        src: 'createNews',
        input: ({ context }) => context.draft,
        onDone: {
          target: 'created',
          actions: [
            { type: 'showToast', params: { kind: 'success', message: NOTICES.created } },
            'resetForm',
            { type: 'navigate', params: { to: '/' } },
          ],
        },
        onError: {
          target: 'editing',
          actions: [
            assign({ fieldErrors: ({ event }) => fieldErrorsOf(event.error) }),
            { type: 'showToast', params: { kind: 'error', message: NOTICES.createFailed } },
          ],
        },
      },
    },
    created: { type: 'final' },
    submitted: { type: 'final' },
  },
})
