import type { ComposedServer } from '@/composition/server/server.composition'
import type { PageRenderer } from '@/server/services/page-renderer'
import * as serverRender from '@/ui/app/server-render'
import { composeTestServer, distWithPageTemplate } from '../server-fixture'

export const PUBLIC_URL = 'https://news.example.com'

/** A server that renders pages with the app's own renderer, and the addresses it rendered. */
export interface RenderingSite {
  readonly server: ComposedServer
  readonly renders: string[]
}

/** A rendering site on the database at `url`, with `env` over the defaults. */
export async function siteOn(
  url: string,
  env: Record<string, string> = {},
): Promise<RenderingSite> {
  const renders: string[] = []
  const renderer: PageRenderer = {
    ...serverRender,
    renderPage: (request) => {
      renders.push(request.url)
      return serverRender.renderPage(request)
    },
  }
  const server = await composeTestServer(
    { DATABASE_URL: url, PUBLIC_URL, ...env },
    { distDir: distWithPageTemplate(), renderer },
  )
  return { server, renders }
}

/** Two rendering sites on one database, started afresh for each test. */
export function useTwoSites(database: { readonly url: string }): {
  readonly a: RenderingSite
  readonly b: RenderingSite
} {
  const sites: { a?: RenderingSite; b?: RenderingSite } = {}
  beforeEach(async () => {
    sites.a = await siteOn(database.url)
    sites.b = await siteOn(database.url)
  })
  afterEach(async () => {
    await sites.a?.server.close()
    await sites.b?.server.close()
  })
  const started = (site: RenderingSite | undefined) => {
    if (site === undefined) throw new Error('the sites start before each test')
    return site
  }
  return {
    get a() {
      return started(sites.a)
    },
    get b() {
      return started(sites.b)
    },
  }
}

/** A GET of `url` from `server`, in process. */
export function get(server: ComposedServer, url: string, headers: Record<string, string> = {}) {
  return server.app.inject({ url, headers })
}
