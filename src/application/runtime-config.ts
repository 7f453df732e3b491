/**
 * What `GET /api/config` answers: the settings the single-page app reads at run time,
 * so that one build serves every deployment.
 */
export interface RuntimeConfig {
  readonly emailjs: EmailJsSettings
}

export interface EmailJsSettings {
  /** The EmailJS API origin; an empty string means the API server's own origin (its outbox). */
  readonly origin: string
  readonly publicKey: string
  readonly serviceId: string
  readonly templateId: string
}
