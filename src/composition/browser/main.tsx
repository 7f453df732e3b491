/**
 * The app's entry: builds the use cases from the browser container and the live change feed,
 * and hydrates the page the server rendered, starting from the data it was rendered with.
 * Without server-rendered content (the Vite dev server), it renders the app itself.
 */
import { createRoot, hydrateRoot } from 'react-dom/client'
import { browserNewsChanges } from '@/composition/browser/browser.news-changes'
import { browserUseCases } from '@/composition/browser/browser.use-cases'
import { NewsWireApp } from '@/ui/app/news-wire-app'
import { watchEarlyTyping } from '@/ui/shared/early-typing'
import { readPageData } from '@/ui/shared/page-data'

const root = document.getElementById('root')
if (root === null) throw new Error('index.html needs an element with id "root"')
// First of all: what the visitor types into the server's page from now on counts as typed.
watchEarlyTyping(document)

// `?inspect` in development attaches the Stately inspector to every machine (see
// docs/statecharts/README.md). A production build reads import.meta.env.DEV as false, so the
// bundler drops this branch and never emits the inspector's chunk.
const inspect =
  import.meta.env.DEV && new URLSearchParams(location.search).has('inspect')
    ? (await import('@statelyai/inspect')).createBrowserInspector().inspect
    : undefined

const pageData = readPageData(document)
const browser = { apiUrl: import.meta.env.VITE_API_URL ?? '' }
const app = (
  <NewsWireApp
    useCases={browserUseCases(browser)}
    changes={browserNewsChanges(browser)}
    inspect={inspect}
    pageData={pageData}
  />
)
// No StrictMode: it starts every screen twice in development, and the spec asks that the
// list load once when its screen opens.
if (pageData !== undefined && root.hasChildNodes()) hydrateRoot(root, app)
else createRoot(root).render(app)
