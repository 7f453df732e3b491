import type { EmailJsSettings, RuntimeConfig } from '@/application/runtime-config'
import { DomainErrorException, unavailable } from '@/domain/domain-error'
import {
  discardBody,
  JsonHttpClient,
  withDomainErrors,
  type HttpOptions,
} from '@/adapters/http/json-http.client'
import { isRecord } from '@/adapters/http/response.guards'

/**
 * Loads `GET /api/config` once per page. A failed load is forgotten, so the next call tries
 * again. The methods are arrow properties so that they can be handed on unbound.
 */
export class RuntimeConfigClient {
  private readonly http: JsonHttpClient
  private pending: Promise<RuntimeConfig> | undefined

  constructor(options: HttpOptions = {}) {
    this.http = new JsonHttpClient(options)
  }

  readonly load = (): Promise<RuntimeConfig> => {
    if (this.pending === undefined) {
      const attempt = this.fetchConfig()
      this.pending = attempt
      attempt.catch(() => {
        if (this.pending === attempt) this.pending = undefined
      })
    }
    return this.pending
  }

  /** The EmailJS settings, in the shape EmailJsMailer's `loadSettings` wants. */
  readonly loadEmailJsSettings = async (): Promise<EmailJsSettings> => (await this.load()).emailjs

  private fetchConfig(): Promise<RuntimeConfig> {
    return withDomainErrors(async () => {
      const response = await this.http.send(this.http.url('/api/config'))
      if (response.status !== 200) {
        discardBody(response)
        throw new DomainErrorException(unavailable())
      }
      const body: unknown = await response.json()
      if (!isRecord(body) || !isEmailJsSettings(body.emailjs)) {
        throw new DomainErrorException(unavailable())
      }
      const { origin, publicKey, serviceId, templateId } = body.emailjs
      return { emailjs: { origin, publicKey, serviceId, templateId } }
    })
  }
}

/** Ids may be empty (the mailer then fails, as the spec says); the origin must be '' or http(s). */
function isEmailJsSettings(value: unknown): value is EmailJsSettings {
  return (
    isRecord(value) &&
    typeof value.publicKey === 'string' &&
    typeof value.serviceId === 'string' &&
    typeof value.templateId === 'string' &&
    typeof value.origin === 'string' &&
    (value.origin === '' || isHttpUrl(value.origin))
  )
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text)
    return protocol === 'http:' || protocol === 'https:'
  } catch {
    return false
  }
}
