import { FormikProvider } from 'formik'
import { CONTACT_FIELDS, type ContactMessage } from '@/domain/contact-message.entity'
import { CONTACT_RULES } from '@/domain/rules/contact-message.rules'
import { useAppServices, useProvidedMachine } from '@/ui/shared/app-context'
import { provideContactForm } from '@/ui/features/contact/contact-form.provide'
import { draftKeys, draftsOf } from '@/ui/shared/draft-storage'
import { DraftNotice } from '@/ui/shared/draft-notice'
import { usePageTitle } from '@/ui/shared/use-page-title'
import { formSchema } from '@/ui/shared/form-schema'
import { RequiredNote, TextField } from '@/ui/shared/text-field'
import { useFormDraft } from '@/ui/shared/use-form-draft'
import { useMachineForm } from '@/ui/shared/use-machine-form'

const schema = formSchema(CONTACT_RULES)
const empty: ContactMessage = { name: '', email: '', message: '' }

export function ContactPage() {
  usePageTitle('Contact us')
  const { drafts } = useAppServices()
  const draft = useFormDraft({
    storage: draftsOf(drafts),
    key: draftKeys.contact(),
    fields: CONTACT_FIELDS,
  })
  const { state, formik, formRef, restored, discardDraft, canSubmit } = useMachineForm({
    machine: useProvidedMachine(provideContactForm),
    baseline: empty,
    validationSchema: schema,
    submitEvent: (values) => ({ type: 'contact.submit' as const, values }),
    draft,
  })
  const sending = state.matches('sending')

  return (
    <section className="form-page" aria-labelledby="contact-heading">
      <h1 id="contact-heading" tabIndex={-1}>
        Contact us
      </h1>
      {restored !== undefined && <DraftNotice draft={restored} onDiscard={discardDraft} />}
      <FormikProvider value={formik}>
        <form ref={formRef} className="form" onSubmit={formik.handleSubmit} noValidate>
          <RequiredNote />
          <TextField name="name" label="Name" rule={CONTACT_RULES.name} autoComplete="name" />
          {/* An address's limit is the mail system's, not a word count to watch. */}
          <TextField
            name="email"
            label="Email Address"
            rule={CONTACT_RULES.email}
            counted={false}
            type="email"
            autoComplete="email"
          />
          <TextField name="message" label="Your Message" rule={CONTACT_RULES.message} multiline />
          <button
            type="submit"
            className="button button-primary"
            disabled={sending || !canSubmit}
            aria-busy={sending}
          >
            Submit
          </button>
        </form>
      </FormikProvider>
    </section>
  )
}
