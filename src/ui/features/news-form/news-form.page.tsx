import { useSelector } from '@xstate/react'
import { FormikProvider } from 'formik'
import { useMemo } from 'react'
import { useParams } from 'react-router-dom'
import type { NewsDraft } from '@/domain/news-item.entity'
import { NEWS_RULES } from '@/domain/rules/news-item.rules'
import { LoadFailed } from '@/ui/shared/load-failed'
import { useAppServices, useProvidedMachine } from '@/ui/app/app-context'
import { provideNewsForm } from '@/ui/features/news-form/news-form.provide'
import { usePageTitle } from '@/ui/shared/use-page-title'
import { formSchema } from '@/ui/shared/form-schema'
import { TextField } from '@/ui/shared/text-field'
import { useMachineForm } from '@/ui/shared/use-machine-form'

const schema = formSchema(NEWS_RULES)

export function AddNewsPage() {
  return <NewsFormScreen />
}

export function EditNewsPage() {
  const { id = '' } = useParams()
  return <NewsFormScreen key={id} id={id} />
}

function NewsFormScreen({ id }: { readonly id?: string }) {
  const { store } = useAppServices()
  const machine = useProvidedMachine(provideNewsForm)
  const editing = id !== undefined
  const stored = useSelector(store, ({ context }) =>
    editing && context.newsItem?._id === id ? context.newsItem : null,
  )
  const initialValues = useMemo<NewsDraft>(
    () => ({ title: stored?.title ?? '', author: stored?.author ?? '', body: stored?.body ?? '' }),
    [stored],
  )
  const { state, send, formik, formRef } = useMachineForm({
    machine,
    input: { id },
    initialValues,
    validationSchema: schema,
    submitEvent: (values) => ({ type: 'form.submit' as const, values }),
    enableReinitialize: editing,
  })
  const heading = editing ? 'Edit news' : 'Add news'
  const submitting = state.matches('submitting')
  usePageTitle(heading)

  return (
    <section className="form-page" aria-labelledby="form-heading">
      <h1 id="form-heading">{heading}</h1>
      {state.matches('loading') && <p role="status">Loading the post…</p>}
      {state.matches('failed') && (
        <LoadFailed what="The post" onRetry={() => send({ type: 'form.retry' })} />
      )}
      {/* The edit form waits for the stored post, so that it never shows empty fields first. */}
      {(state.matches('editing') || submitting) && (!editing || stored !== null) && (
        <FormikProvider value={formik}>
          <form ref={formRef} className="form" onSubmit={formik.handleSubmit} noValidate>
            <TextField name="title" label="Title" />
            <TextField name="author" label="Author Name" autoComplete="name" />
            <TextField name="body" label="Body" multiline />
            <button
              type="submit"
              className="button button-primary"
              disabled={submitting}
              aria-busy={submitting}
            >
              {heading}
            </button>
          </form>
        </FormikProvider>
      )}
    </section>
  )
}
