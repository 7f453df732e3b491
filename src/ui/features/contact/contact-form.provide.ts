import type { AppServices } from '@/ui/shared/app-services'
import { contactFormMachine } from '@/ui/features/contact/contact-form.machine'
import { fromUseCase } from '@/ui/shared/machine-effects'

export const provideContactForm = ({ useCases, edge }: AppServices) =>
  contactFormMachine.provide({
    actors: {
      sendContactMessage: fromUseCase((message) => useCases.sendContactMessage.execute(message)),
    },
    actions: edge,
  })
