import { FormikProvider } from 'formik'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useParams } from 'react-router-dom'
import { NEWS_FIELDS, type NewsDraft, type NewsItem } from '@/domain/news-item.entity'
import { reviewEdit } from '@/domain/rules/edit-review'
import { NEWS_RULES } from '@/domain/rules/news-item.rules'
import { LoadFailed } from '@/ui/shared/load-failed'
import { useAppServices, usePageData, useProvidedMachine } from '@/ui/shared/app-context'
import { provideNewsForm } from '@/ui/features/news-form/news-form.provide'
import { draftKeys, draftsOf } from '@/ui/shared/draft-storage'
import { DraftNotice } from '@/ui/shared/draft-notice'
import { newIdempotencyKey } from '@/ui/shared/idempotency-key'
import { usePageTitle } from '@/ui/shared/use-page-title'
import { formSchema } from '@/ui/shared/form-schema'
import { RequiredNote, TextField } from '@/ui/shared/text-field'
import { useFormDraft } from '@/ui/shared/use-form-draft'
import { useMachineForm } from '@/ui/shared/use-machine-form'
import { NotAvailablePage } from '@/ui/shared/not-available.page'
import { DELETED_ELSEWHERE } from '@/ui/store/live-updates.hooks'
import { useLiveStatus } from '@/ui/store/live-updates.status'
import { DELETED_POST_TEXTS, DRAFT_TEXTS } from '@/ui/shared/form-texts'
import { SavedMeanwhile } from '@/ui/features/news-form/edit-review'
import type { UnsavedEdit } from '@/ui/store/news-store.logic'
import { NewsStore } from '@/ui/store/news-store.provider'

const schema = formSchema(NEWS_RULES)

/** The post changed while the visitor edits it: the form keeps their text, and says so. */
const EDITED_ELSEWHERE =
  'This post was edited elsewhere. Your text stays here; saving shows you the newer version beside it first.'

/** What the form says of an edit this visit could not save, by why. */
const UNSAVED_TEXT = {
  stale: 'notSaved',
  deleted: 'notSavedDeleted',
  refused: 'notSavedRefused',
} as const satisfies Record<UnsavedEdit['reason'], keyof typeof DRAFT_TEXTS>

export function AddNewsPage() {
  return <NewsFormScreen />
}

export function EditNewsPage() {
  const { id = '' } = useParams()
  return <EditNewsScreen key={id} id={id} />
}

function EditNewsScreen({ id }: { readonly id: string }) {
  // The post the server rendered the edit form with (null: there was none, a 404 page).
  const rendered = usePageData((pageData) => pageData.item(id))
  return rendered === null ? (
    <NotAvailablePage />
  ) : (
    <NewsFormScreen id={id} rendered={rendered !== undefined} />
  )
}

function NewsFormScreen({
  id,
  rendered = false,
}: {
  readonly id?: string
  readonly rendered?: boolean
}) {
  const { drafts } = useAppServices()
  const store = NewsStore.useActorRef()
  const machine = useProvidedMachine(provideNewsForm)
  const editing = id !== undefined
  const stored = NewsStore.useSelector(({ context }) =>
    editing && context.newsItem?._id === id ? context.newsItem : null,
  )
  const baseline = useMemo<NewsDraft>(() => valuesOf(stored), [stored])
  // The text of an edit the news store could not save, taken from memory once, as the form opens.
  const [unsaved] = useState(() => (editing ? store.getSnapshot().context.unsaved[id] : undefined))
  useEffect(() => {
    if (unsaved !== undefined && id !== undefined) store.send({ type: 'news.unsavedTaken', id })
  }, [unsaved, id, store])
  const draft = useFormDraft({
    storage: draftsOf(drafts),
    key: editing ? draftKeys.edit(id) : draftKeys.add(),
    fields: NEWS_FIELDS,
    ...(unsaved === undefined ? {} : { fromMemory: unsaved }),
  })
  const restored = draft.restored
  // The visitor's text was written against an older version: review it against the newer one.
  const savedMeanwhile =
    stored !== null && restored?.revision !== undefined && stored.revision > restored.revision
      ? stored
      : null
  const review = useMemo(
    () =>
      savedMeanwhile === null || restored === undefined
        ? undefined
        : reviewEdit(NEWS_FIELDS, restored.values, valuesOf(savedMeanwhile), restored.base),
    [savedMeanwhile, restored],
  )
  // Which of the deleted post's two buttons sent the form.
  const intent = useRef<'restore' | 'copy'>('restore')
  const status = useLiveStatus(stored)
  const deleted = editing && status === 'deleted'
  const { state, send, formik, formRef, discardDraft, canSubmit } = useMachineForm({
    machine,
    input: { id },
    // The form starts editing the post the server rendered it with, or the post whose unsaved
    // edit it takes back, and loads nothing.
    startAt: !(rendered || (unsaved !== undefined && stored !== null))
      ? undefined
      : (form) =>
          form.resolveState({
            value: 'editing',
            context: {
              id,
              draft: { title: '', body: '', author: '' },
              idempotencyKey: undefined,
              fieldErrors: {},
            },
          }),
    baseline,
    revision: stored?.revision,
    baselineReady: !editing || stored !== null,
    restoredValues: review?.values,
    validationSchema: schema,
    submitEvent: (values) => {
      if (!editing) {
        return { type: 'form.submit' as const, values, idempotencyKey: newIdempotencyKey() }
      }
      if (deleted) {
        return intent.current === 'restore'
          ? { type: 'form.restoreAndSave' as const, values }
          : { type: 'form.saveAsNew' as const, values, idempotencyKey: newIdempotencyKey() }
      }
      // The version the text now stands against: the one reviewed, else the one it started from.
      const base = savedMeanwhile === null ? draft.keeper.startedFrom() : valuesOf(savedMeanwhile)
      // Saving replaces the version the form shows, and only that one.
      return {
        type: 'form.submit' as const,
        values,
        revision: stored?.revision,
        ...(base === undefined ? {} : { base }),
      }
    },
    enableReinitialize: editing,
    draft,
  })
  const heading = editing ? 'Edit news' : 'Add news'
  const submitting = state.matches('submitting') || state.matches('restoring')
  usePageTitle(heading)
  // The text of an edit this visit could not save says why; a draft from storage, where from.
  const draftMessage = unsaved === undefined ? undefined : DRAFT_TEXTS[UNSAVED_TEXT[unsaved.reason]]

  return (
    <section className="form-page" aria-labelledby="form-heading">
      <h1 id="form-heading" tabIndex={-1}>
        {heading}
      </h1>
      {state.matches('loading') && <p role="status">Loading the post…</p>}
      {state.matches('failed') && (
        <LoadFailed what="The post" onRetry={() => send({ type: 'form.retry' })} />
      )}
      {/* The edit form waits for the stored post, so that it never shows empty fields first. */}
      {(state.matches('editing') || submitting) && (!editing || stored !== null) && (
        <>
          {restored !== undefined && (
            <DraftNotice draft={restored} message={draftMessage} onDiscard={discardDraft} />
          )}
          {editing && (
            <div className="live-notices" aria-live="polite">
              {status !== 'current' && (
                <div className="live-notice">
                  <p>
                    {deleted
                      ? `${DELETED_ELSEWHERE} ${DELETED_POST_TEXTS.choice}`
                      : EDITED_ELSEWHERE}
                  </p>
                </div>
              )}
            </div>
          )}
          <div className={savedMeanwhile === null ? undefined : 'conflict-layout'}>
            {/* First to read and to reach: what changed, and the choices, before the fields. */}
            {savedMeanwhile !== null && review !== undefined && restored !== undefined && (
              <SavedMeanwhile
                item={savedMeanwhile}
                review={review}
                mine={restored.values}
                choose={(field, text) => void formik.setFieldValue(field, text)}
              />
            )}
            <FormikProvider value={formik}>
              <form ref={formRef} className="form" onSubmit={formik.handleSubmit} noValidate>
                <RequiredNote />
                <TextField name="title" label="Title" rule={NEWS_RULES.title} />
                <TextField
                  name="author"
                  label="Author Name"
                  rule={NEWS_RULES.author}
                  autoComplete="name"
                />
                <TextField name="body" label="Body" rule={NEWS_RULES.body} multiline />
                {deleted ? (
                  <div className="form-actions">
                    {(
                      [
                        ['restore', DELETED_POST_TEXTS.restoreAndSave, 'button button-primary'],
                        ['copy', DELETED_POST_TEXTS.saveAsNew, 'button'],
                      ] as const
                    ).map(([which, label, className]) => (
                      <button
                        key={which}
                        type="submit"
                        className={className}
                        disabled={submitting || !canSubmit}
                        aria-busy={submitting && intent.current === which}
                        onClick={() => {
                          intent.current = which
                        }}
                      >
                        {label}
                      </button>
                    ))}
                  </div>
                ) : (
                  <button
                    type="submit"
                    className="button button-primary"
                    disabled={submitting || !canSubmit}
                    aria-busy={submitting}
                  >
                    {heading}
                  </button>
                )}
              </form>
            </FormikProvider>
          </div>
        </>
      )}
    </section>
  )
}

/** A post's values as the form holds them; empty where there is no post yet. */
function valuesOf(item: NewsItem | null): NewsDraft {
  return { title: item?.title ?? '', author: item?.author ?? '', body: item?.body ?? '' }
}
