import type { EmailJsSettings, RuntimeConfig } from '@/application/runtime-config'
import { unavailable } from '@/domain/domain-error'
import {
  discardBody,
  JsonHttpClient,
  withDomainErrors,
  type HttpOptions,
} from '@/adapters/http/json-http.client'
import { RuntimeConfigSchema } from '@/contract/runtime-config.wire-schemas'
import { decode } from '@/adapters/http/wire-schema.checker'

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
        throw unavailable()
      }
      const config = decode(RuntimeConfigSchema, await response.json())
      if (config === undefined || !isEmailJsOrigin(config.emailjs.origin)) {
        throw unavailable()
      }
      return config
    })
  }
}

/** Ids may be empty (the mailer then fails, as the spec says); the origin must be '' or http(s). */
function isEmailJsOrigin(origin: string): boolean {
  return origin === '' || isHttpUrl(origin)
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text)
    return protocol === 'http:' || protocol === 'https:'
  } catch {
    return false
  }
}
