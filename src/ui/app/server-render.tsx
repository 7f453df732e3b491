/**
 * The server's way into the app: it renders a page to HTML with the same screens the browser
 * hydrates. `vite build` bundles this file for Node (dist-server/), so that the server loads
 * it without knowing React, CSS or images; the server's composition root hands it the use cases.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { prerenderToNodeStream } from 'react-dom/static'
import { StaticRouter } from 'react-router-dom'
import type { UseCases } from '@/application/use-cases'
import { NewsWireApp } from '@/ui/app/news-wire-app'
import type { PageData, PageNeed } from '@/application/page-data'
import { embedPageData, pageNeed, pageStatus } from '@/ui/app/page-routes'
import { PageHead } from '@/ui/app/page-head'

export { embedPageData, pageNeed, pageStatus }
export { PAGE_PATHS } from '@/ui/app/page-routes'
export { PAGE_DATA_ID } from '@/ui/shared/page-data'

export interface RenderRequest {
  /** The path and query asked for. */
  readonly url: string
  /** The site's absolute origin, for canonical links and previews. */
  readonly origin: string
  readonly useCases: UseCases
  /** What the page needs, loaded by the server (see pageNeed). */
  readonly data: PageData
  /** What pageNeed gave for the URL, which the server has already worked out. */
  readonly need: PageNeed
}

export interface RenderedPage {
  /** Title, description, canonical link, preview tags and JSON-LD, for the head. */
  readonly head: string
  /** The app's HTML, for the root element. */
  readonly html: string
}

/**
 * Renders the page at `url` once every screen's code has loaded (prerender waits for the
 * lazy screens), with the machines and the news store starting from `data`, as they will
 * in the browser. No effect runs on the server: no toast, no navigation, no fetch.
 */
export async function renderPage({
  url,
  origin,
  useCases,
  data,
  need,
}: RenderRequest): Promise<RenderedPage> {
  const { pathname } = new URL(url, origin)
  const head = renderToStaticMarkup(
    <PageHead origin={origin} pathname={pathname} need={need} data={data} />,
  )
  // React answers an error inside a screen with an inline script that hands the screen to the
  // browser, which the Content-Security-Policy forbids: so any error fails the whole render,
  // and the server sends the page for the browser to render instead.
  const errors: unknown[] = []
  const { prelude } = await prerenderToNodeStream(
    <NewsWireApp
      useCases={useCases}
      router={({ children }) => <StaticRouter location={url}>{children}</StaticRouter>}
      pageData={data}
    />,
    {
      onError: (error) => void errors.push(error),
      // React 19.2 moves a large screen out of line, to be put in place by an inline script;
      // the Content-Security-Policy forbids inline scripts, so every screen stays in line.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
    },
  )
  const html = await textOf(prelude)
  if (errors.length > 0) throw new AggregateError(errors, `Rendering ${pathname} failed`)
  return { head, html }
}

/**
 * The text of a stream of UTF-8 bytes, decoded once at its end: cheaper than node's text(),
 * which reads the stream through an async iterator and decodes it chunk by chunk.
 */
function textOf(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = []
    stream.on('data', (chunk: Uint8Array) => chunks.push(chunk))
    stream.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    stream.once('error', reject)
  })
}
