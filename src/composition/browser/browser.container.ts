/**
 * The browser's composition root: the only place that chooses the app's adapters. The HTTP
 * repository talks to the NewsWire API; the mailer sends through EmailJS with the settings
 * the API hands out at run time (GET /api/config). It loads as its own chunk, on the first use
 * case a page calls (see browser.use-cases.ts), so inversify and the adapters stay off the
 * first visit.
 */
import { Container, ContainerModule } from 'inversify'
import { lazily } from '@/application/lazily'
import type { UseCases } from '@/application/use-cases'
import { HttpNewsRepository } from '@/adapters/http/http-news.repository'
import type { Mailer } from '@/domain/ports/mailer.port'
import { PORTS, USE_CASES, useCasesModule } from '@/composition/core.module'

export interface BrowserOptions {
  /** The API's address; '' (the default) means this page's origin. */
  readonly apiUrl: string
}

/** Binds the ports to the HTTP and EmailJS adapters and the use cases to the ports. */
export function createBrowserContainer({ apiUrl }: BrowserOptions): Container {
  const apiOrigin = new URL(apiUrl || globalThis.location.origin, globalThis.location.href).origin
  const adapters = new ContainerModule(({ bind }) => {
    bind(PORTS.newsRepository).toConstantValue(new HttpNewsRepository({ baseUrl: apiUrl }))
    bind(PORTS.mailer).toConstantValue(
      onFirstSend(async () => {
        const [{ EmailJsMailer }, { RuntimeConfigClient }] = await Promise.all([
          import('@/adapters/emailjs/emailjs.mailer'),
          import('@/adapters/http/runtime-config.client'),
        ])
        const config = new RuntimeConfigClient({ baseUrl: apiUrl })
        return new EmailJsMailer({ loadSettings: config.loadEmailJsSettings, apiOrigin })
      }),
    )
  })
  const container = new Container()
  container.load(adapters, useCasesModule)
  return container
}

/**
 * A mailer whose code loads with the first message, so that the mail adapter and its settings
 * never weigh on pages that send none. A failed load is tried again on the next send.
 */
function onFirstSend(load: () => Promise<Mailer>): Mailer {
  const mailer = lazily(load)
  return { send: async (message) => (await mailer()).send(message) }
}

/** The use cases as the container wires them; browser.use-cases.ts loads this on demand. */
export function resolveBrowserUseCases(options: BrowserOptions): UseCases {
  return createBrowserContainer(options).get(USE_CASES)
}
