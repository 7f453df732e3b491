/**
 * The browser's composition root: the only place that chooses the app's adapters. The HTTP
 * repository talks to the NewsWire API; the mailer sends through EmailJS with the settings
 * the API hands out at run time (GET /api/config).
 */
import { Container, ContainerModule } from 'inversify'
import type { UseCases } from '@/application/use-cases'
import { EmailJsMailer } from '@/adapters/emailjs/emailjs.mailer'
import { HttpNewsRepository } from '@/adapters/http/http-news.repository'
import { RuntimeConfigClient } from '@/adapters/http/runtime-config.client'
import { PORTS, USE_CASES, useCasesModule } from '@/composition/core.module'

export interface BrowserOptions {
  /** The API's address; '' (the default) means this page's origin. */
  readonly apiUrl: string
}

export function createBrowserContainer({ apiUrl }: BrowserOptions): Container {
  const apiOrigin = new URL(apiUrl || globalThis.location.origin, globalThis.location.href).origin
  const adapters = new ContainerModule(({ bind }) => {
    bind(PORTS.newsRepository).toConstantValue(new HttpNewsRepository({ baseUrl: apiUrl }))
    const config = new RuntimeConfigClient({ baseUrl: apiUrl })
    bind(PORTS.mailer).toConstantValue(
      new EmailJsMailer({ loadSettings: config.loadEmailJsSettings, apiOrigin }),
    )
  })
  const container = new Container()
  container.load(adapters, useCasesModule)
  return container
}

export function browserUseCases(options: BrowserOptions): UseCases {
  return createBrowserContainer(options).get(USE_CASES)
}
