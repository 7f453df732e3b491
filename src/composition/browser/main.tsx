/** The app's entry: builds the use cases from the browser container and renders the app. */
import { createRoot } from 'react-dom/client'
import { browserUseCases } from '@/composition/browser/browser.container'
import { NewsWireApp } from '@/ui/app/news-wire-app'

const root = document.getElementById('root')
if (root === null) throw new Error('index.html needs an element with id "root"')

// `?inspect` in development attaches the Stately inspector to every machine (see
// docs/statecharts/README.md). A production build reads import.meta.env.DEV as false, so the
// bundler drops this branch and never emits the inspector's chunk.
const inspect =
  import.meta.env.DEV && new URLSearchParams(location.search).has('inspect')
    ? (await import('@statelyai/inspect')).createBrowserInspector().inspect
    : undefined

// No StrictMode: it starts every screen twice in development, and the spec asks that the
// list load once when its screen opens.
createRoot(root).render(
  <NewsWireApp
    useCases={browserUseCases({ apiUrl: import.meta.env.VITE_API_URL ?? '' })}
    inspect={inspect}
  />,
)
