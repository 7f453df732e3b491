import { FormikProvider } from 'formik'
import { CONTACT_FIELDS, type ContactMessage } from '@/domain/contact-message.entity'
import { CONTACT_RULES } from '@/domain/rules/contact-message.rules'
import { useAppServices, useProvidedMachine } from '@/ui/app/app-context'
import { provideContactForm } from '@/ui/features/contact/contact-form.provide'
import { draftKeys } from '@/ui/shared/draft-storage'
import { DraftNotice } from '@/ui/shared/draft-notice'
import { usePageTitle } from '@/ui/shared/use-page-title'
import { formSchema } from '@/ui/shared/form-schema'
import { TextField } from '@/ui/shared/text-field'
import { useFormDraft } from '@/ui/shared/use-form-draft'
import { useMachineForm } from '@/ui/shared/use-machine-form'

const schema = formSchema(CONTACT_RULES)
const empty: ContactMessage = { name: '', email: '', message: '' }

export function ContactPage() {
  usePageTitle('Contact us')
  const { drafts } = useAppServices()
  const draft = useFormDraft({ storage: drafts, key: draftKeys.contact(), fields: CONTACT_FIELDS })
  const { state, formik, formRef, restored, discardDraft } = useMachineForm({
    machine: useProvidedMachine(provideContactForm),
    baseline: empty,
    validationSchema: schema,
    submitEvent: (values) => ({ type: 'contact.submit' as const, values }),
    draft,
  })
  const sending = state.matches('sending')

  return (
    <section className="form-page" aria-labelledby="contact-heading">
      <h1 id="contact-heading">Contact us</h1>
      {restored !== undefined && <DraftNotice onDiscard={discardDraft} />}
      <FormikProvider value={formik}>
        <form ref={formRef} className="form" onSubmit={formik.handleSubmit} noValidate>
          <TextField name="name" label="Name" autoComplete="name" />
          <TextField name="email" label="Email Address" type="email" autoComplete="email" />
          <TextField name="message" label="Your Message" multiline />
          <button
            type="submit"
            className="button button-primary"
            disabled={sending}
            aria-busy={sending}
          >
            Submit
          </button>
        </form>
      </FormikProvider>
    </section>
  )
}
