import { and, assertEvent, assign, setup, type AnyEventObject } from 'xstate'
import type { NewsChanges, NewsDraft, NewsItem } from '@/domain/news-item.entity'
import { checkFields, hasErrors, type FieldErrors } from '@/domain/rules/field-rule'
import type { WriteCondition } from '@/domain/rules/news-history.rules'
import { NEWS_RULES } from '@/domain/rules/news-item.rules'
import { fieldErrorsOf, stubUseCase } from '@/ui/shared/machine-effects'
import { NOTICES } from '@/ui/shared/notices'
import { paths } from '@/ui/shared/paths'
import * as fragment from '@/ui/shared/item-machine.fragment'

export interface NewsFormInput {
  /** Present when editing an existing post. */
  readonly id?: string
}

export interface NewsFormContext {
  readonly id: string | undefined
  /** What the visitor last submitted. */
  readonly draft: NewsDraft
  /** The add form's key for the submission of `draft`: a retry of the same values reuses it. */
  readonly idempotencyKey: string | undefined
  /** Messages the last refused submit left, by field. */
  readonly fieldErrors: FieldErrors<string>
}

export type NewsFormEvent =
  | {
      readonly type: 'form.submit'
      readonly values: NewsDraft
      /** The edit form: the revision of the post it showed, which the save may replace. */
      readonly revision?: number
      /** The edit form: the values of the version the visitor's text was started from. */
      readonly base?: NewsDraft
      /** The add form: a new key for this submission, unless it retries the last one. */
      readonly idempotencyKey?: string
    }
  /** The post was deleted meanwhile: bring it back, then save the edit onto it. */
  | { readonly type: 'form.restoreAndSave'; readonly values: NewsDraft }
  /** The post was deleted meanwhile: save the visitor's text as a new post. */
  | { readonly type: 'form.saveAsNew'; readonly values: NewsDraft; readonly idempotencyKey: string }
  | { readonly type: 'form.retry' }

export interface EditParams {
  readonly id: string
  readonly changes: NewsChanges
  readonly condition?: WriteCondition
  readonly base?: NewsDraft
}

export interface CreateRequest {
  readonly draft: NewsDraft
  readonly idempotencyKey?: string
}

function invalidFields(event: NewsFormEvent): FieldErrors<string> {
  return 'values' in event ? checkFields(NEWS_RULES, event.values) : {}
}

function sameDraft(a: NewsDraft, b: NewsDraft): boolean {
  return a.title === b.title && a.author === b.author && a.body === b.body
}

interface Step {
  readonly context: NewsFormContext
}

/**
 * The add and edit forms. Adding waits for the server, with one idempotency key per
 * submission, so that a retry after a timeout never makes two posts. Editing hands the change
 * to the news store, on the condition that the post is still the revision the form showed, and
 * goes to the article at once (see docs/spec-deviations.md, decision 6). An edit of a post
 * deleted meanwhile keeps its text: it restores the post and saves onto it, or it is saved as a
 * new post, as the add form saves.
 */
export const newsFormMachine = setup({
  types: {
    context: {} as NewsFormContext,
    events: {} as NewsFormEvent,
    input: {} as NewsFormInput,
  },
  actors: {
    ...fragment.itemImplementations.actors,
    ...fragment.restoreImplementations.actors,
    createNews: stubUseCase<NewsItem, CreateRequest>(),
  },
  actions: {
    ...fragment.itemImplementations.actions,
    /** Hands an edit to the news store, which saves it and reports the outcome. */
    requestEdit: (_, _params: EditParams): void => undefined,
    resetForm: (): void => undefined,
    /** The form was sent: forget its draft. */
    clearDraft: (): void => undefined,
  },
  guards: {
    ...fragment.itemImplementations.guards,
    isEditing: ({ context }) => context.id !== undefined,
    isValid: ({ event }) => {
      assertEvent(event, ['form.submit', 'form.restoreAndSave', 'form.saveAsNew'])
      return !hasErrors(invalidFields(event))
    },
  },
}).createMachine({
  id: 'newsForm',
  context: ({ input }) => ({
    id: input.id,
    draft: { title: '', body: '', author: '' },
    idempotencyKey: undefined,
    fieldErrors: {},
  }),
  initial: 'opening',
  states: {
    opening: {
      always: [{ guard: 'isEditing', target: 'loading' }, { target: 'editing' }],
    },
    ...fragment.loadStates('editing', 'form.retry'),
    editing: {
      on: {
        'form.submit': [
          {
            guard: and(['isValid', 'isEditing']),
            target: 'submitted',
            actions: [
              {
                type: 'requestEdit',
                params: ({ context, event }) => ({
                  id: context.id ?? '',
                  changes: event.values,
                  ...(event.revision === undefined
                    ? {}
                    : { condition: { ifRevision: [event.revision] } }),
                  ...(event.base === undefined ? {} : { base: event.base }),
                }),
              },
              {
                type: 'navigate',
                params: ({ context }) => ({ to: paths.article(context.id ?? '') }),
              },
            ],
          },
          {
            guard: 'isValid',
            target: 'submitting',
            actions: assign({
              // The same values again are a retry of the same submission: same key.
              idempotencyKey: ({ context, event }) =>
                context.idempotencyKey !== undefined && sameDraft(context.draft, event.values)
                  ? context.idempotencyKey
                  : event.idempotencyKey,
              draft: ({ event }) => event.values,
              fieldErrors: {},
            }),
          },
          { actions: assign({ fieldErrors: ({ event }) => invalidFields(event) }) },
        ],
        'form.restoreAndSave': [
          {
            guard: and(['isValid', 'isEditing']),
            target: 'restoring',
            actions: assign({ draft: ({ event }) => event.values, fieldErrors: {} }),
          },
          { actions: assign({ fieldErrors: ({ event }) => invalidFields(event) }) },
        ],
        'form.saveAsNew': [
          {
            guard: 'isValid',
            target: 'submitting',
            actions: assign({
              idempotencyKey: ({ event }) => event.idempotencyKey,
              draft: ({ event }) => event.values,
              fieldErrors: {},
            }),
          },
          { actions: assign({ fieldErrors: ({ event }) => invalidFields(event) }) },
        ],
      },
    },
    // The post comes back from the trash first; the edit is then saved onto the version the
    // restore made, as any edit is.
    restoring: fragment.restoreState({
      input: ({ context }: Step) => context.id ?? '',
      restored: {
        target: 'submitted',
        actions: [
          fragment.storeRestored,
          {
            type: 'requestEdit',
            params: ({ context, event }: Step & fragment.RestoredStep) => ({
              id: event.output._id,
              changes: context.draft,
              condition: { ifRevision: [event.output.revision] },
            }),
          },
          {
            type: 'navigate',
            params: ({ event }: fragment.RestoredStep) => ({ to: paths.article(event.output._id) }),
          },
        ],
      },
      // The store's toast tells of the edit saved onto it.
      announce: false,
      failed: { target: 'editing' },
    }),
    submitting: fragment.submitState({
      src: 'createNews',
      input: ({ context }: Step): CreateRequest =>
        context.idempotencyKey === undefined
          ? { draft: context.draft }
          : { draft: context.draft, idempotencyKey: context.idempotencyKey },
      done: {
        target: 'created',
        actions: [
          { type: 'showToast', params: { kind: 'success', message: NOTICES.created } },
          'clearDraft',
          'resetForm',
          { type: 'navigate', params: { to: paths.home(), replace: true } },
        ],
      },
      failed: 'editing',
      failureMessage: NOTICES.createFailed,
      onFailure: [
        assign({
          fieldErrors: ({ event }: { readonly event: AnyEventObject }) =>
            fieldErrorsOf(event.error),
        }),
      ],
    }),
    created: { type: 'final' },
    submitted: { type: 'final' },
  },
})
