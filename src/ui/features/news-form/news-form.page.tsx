import { useSelector } from '@xstate/react'
import { FormikProvider } from 'formik'
import { useMemo } from 'react'
import { useParams } from 'react-router-dom'
import { NEWS_FIELDS, type NewsDraft, type NewsItem } from '@/domain/news-item.entity'
import { NEWS_RULES } from '@/domain/rules/news-item.rules'
import { LoadFailed } from '@/ui/shared/load-failed'
import { useAppServices, usePageData, useProvidedMachine } from '@/ui/shared/app-context'
import { provideNewsForm } from '@/ui/features/news-form/news-form.provide'
import { draftKeys } from '@/ui/shared/draft-storage'
import { DraftNotice } from '@/ui/shared/draft-notice'
import { newIdempotencyKey } from '@/ui/shared/idempotency-key'
import { usePageTitle } from '@/ui/shared/use-page-title'
import { formSchema } from '@/ui/shared/form-schema'
import { RequiredNote, TextField } from '@/ui/shared/text-field'
import { useFormDraft } from '@/ui/shared/use-form-draft'
import { useMachineForm } from '@/ui/shared/use-machine-form'
import { NotAvailablePage } from '@/ui/features/not-found/unknown-route.page'
import { DELETED_ELSEWHERE } from '@/ui/shared/live-updates.hooks'
import { useLiveStatus } from '@/ui/shared/live-updates.status'

const schema = formSchema(NEWS_RULES)

/** The post changed while the visitor edits it: the form keeps their text, and says so. */
const EDITED_ELSEWHERE =
  'This post was edited elsewhere. Your text stays here; saving shows you the newer version beside it first.'

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
  const { store, drafts } = useAppServices()
  const machine = useProvidedMachine(provideNewsForm)
  const editing = id !== undefined
  const stored = useSelector(store, ({ context }) =>
    editing && context.newsItem?._id === id ? context.newsItem : null,
  )
  const baseline = useMemo<NewsDraft>(
    () => ({ title: stored?.title ?? '', author: stored?.author ?? '', body: stored?.body ?? '' }),
    [stored],
  )
  const draft = useFormDraft({
    storage: drafts,
    key: editing ? draftKeys.edit(id) : draftKeys.add(),
    fields: NEWS_FIELDS,
  })
  const { state, send, formik, formRef, restored, discardDraft, canSubmit } = useMachineForm({
    machine,
    input: { id },
    // The form starts editing the post the server rendered it with, and loads nothing.
    startAt: !rendered
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
    validationSchema: schema,
    submitEvent: (values) =>
      editing
        ? // Saving replaces the version the form shows, and only that one.
          { type: 'form.submit' as const, values, revision: stored?.revision }
        : { type: 'form.submit' as const, values, idempotencyKey: newIdempotencyKey() },
    enableReinitialize: editing,
    draft,
  })
  const heading = editing ? 'Edit news' : 'Add news'
  const submitting = state.matches('submitting')
  // The form keeps what it shows and what is typed; it only says that the post changed.
  const status = useLiveStatus(stored)
  usePageTitle(heading)
  // The visitor's draft was written against an older version: show the newer one beside it.
  const savedMeanwhile =
    stored !== null && restored?.revision !== undefined && stored.revision > restored.revision
      ? stored
      : null

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
          {restored !== undefined && <DraftNotice onDiscard={discardDraft} />}
          {editing && (
            <div className="live-notices" aria-live="polite">
              {status !== 'current' && (
                <div className="live-notice">
                  <p>{status === 'deleted' ? DELETED_ELSEWHERE : EDITED_ELSEWHERE}</p>
                </div>
              )}
            </div>
          )}
          <div className={savedMeanwhile === null ? undefined : 'conflict-layout'}>
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
                <button
                  type="submit"
                  className="button button-primary"
                  disabled={submitting || !canSubmit}
                  aria-busy={submitting}
                >
                  {heading}
                </button>
              </form>
            </FormikProvider>
            {savedMeanwhile !== null && <SavedMeanwhile item={savedMeanwhile} />}
          </div>
        </>
      )}
    </section>
  )
}

/** The stored version that is newer than the visitor's draft, read-only, beside the form. */
function SavedMeanwhile({ item }: { readonly item: NewsItem }) {
  return (
    <aside className="saved-meanwhile" aria-labelledby="saved-meanwhile-heading">
      <h2 id="saved-meanwhile-heading">Saved meanwhile</h2>
      <p>
        Someone saved this post after you started editing. The form holds your text; this is the
        stored version. Saving the form replaces it with yours.
      </p>
      <dl className="saved-meanwhile-fields">
        <dt>Title</dt>
        <dd dir="auto">{item.title}</dd>
        <dt>Author Name</dt>
        <dd dir="auto">{item.author}</dd>
        <dt>Body</dt>
        <dd className="saved-meanwhile-body" dir="auto">
          {item.body}
        </dd>
      </dl>
    </aside>
  )
}
