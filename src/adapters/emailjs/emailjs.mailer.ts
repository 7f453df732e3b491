import type { EmailJsSettings } from '@/application/runtime-config'
import { CONTACT_FIELDS, type ContactMessage } from '@/domain/contact-message.entity'
import { forbidden, unavailable, type Refusal } from '@/domain/domain-error'
import { refusalOf } from '@/adapters/shared/refusal'
import type { Mailer } from '@/domain/ports/mailer.port'

export interface EmailJsMailerOptions {
  /** The settings from `GET /api/config`, read at send time so one build serves every deployment. */
  readonly loadSettings: () => Promise<EmailJsSettings>
  /** Where the API's built-in outbox lives, used when the settings' origin is empty. */
  readonly apiOrigin?: string
  /** How long a send may take before it counts as failed. */
  readonly timeoutMs?: number
}

/**
 * Sends the contact form through EmailJS (or the API's EmailJS-compatible outbox). The SDK is
 * imported on the first send, so it never weighs on pages that do not mail.
 */
export class EmailJsMailer implements Mailer {
  private readonly loadSettings: () => Promise<EmailJsSettings>
  private readonly apiOrigin: string
  private readonly timeoutMs: number

  constructor({
    loadSettings,
    apiOrigin = globalThis.location?.origin ?? '',
    timeoutMs = 15_000,
  }: EmailJsMailerOptions) {
    this.loadSettings = loadSettings
    this.apiOrigin = apiOrigin
    this.timeoutMs = timeoutMs
  }

  async send(message: ContactMessage): Promise<void> {
    try {
      await withinTimeout(this.deliver(message), this.timeoutMs)
    } catch (thrown) {
      const refusal = refusalIn(thrown)
      throw refusal === undefined ? unavailable() : forbidden(refusal)
    }
  }

  private async deliver(message: ContactMessage): Promise<void> {
    const settings = await this.loadSettings()
    const origin = (settings.origin || this.apiOrigin).replace(/\/+$/, '')
    // Without an origin the SDK would fall back to api.emailjs.com rather than to our outbox.
    if (origin === '') throw new Error('no EmailJS origin')
    const { init, sendForm } = await import('@emailjs/browser')
    init({ publicKey: settings.publicKey, blockHeadless: false }, origin)
    // The SDK itself rejects a missing public key, service id or template id.
    const answer = await sendForm(settings.serviceId, settings.templateId, contactForm(message))
    if (answer.status !== 200 && answer.text !== 'OK') throw new Error('not sent')
  }
}

/**
 * The operator's block, when the outbox refused the message for it: the SDK rejects with the
 * answer's status and text, which is then the API's 403 problem. EmailJS's own service never
 * answers one, and any other failure is Unavailable.
 */
function refusalIn(thrown: unknown): Refusal | undefined {
  if (typeof thrown !== 'object' || thrown === null) return undefined
  const { status, text } = thrown as { status?: unknown; text?: unknown }
  if (status !== 403 || typeof text !== 'string') return undefined
  try {
    return refusalOf(JSON.parse(text))
  } catch {
    return undefined
  }
}

/** EmailJS reads a form element. Hidden inputs keep the text as is; text inputs drop line breaks. */
function contactForm(message: ContactMessage): HTMLFormElement {
  const form = document.createElement('form')
  for (const field of CONTACT_FIELDS) {
    const input = document.createElement('input')
    input.type = 'hidden'
    input.name = field
    input.value = message[field]
    form.append(input)
  }
  return form
}

/** The SDK takes no abort signal, so a send that is too slow is abandoned, not cancelled. */
async function withinTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms)
  })
  try {
    return await Promise.race([work, expired])
  } finally {
    clearTimeout(timer)
  }
}
