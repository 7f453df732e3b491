/** The app's entry: builds the use cases from the browser container and renders the app. */
import { createRoot } from 'react-dom/client'
import { browserUseCases } from '@/composition/browser/browser.container'
import { NewsWireApp } from '@/ui/app/news-wire-app'

const root = document.getElementById('root')
if (root === null) throw new Error('index.html needs an element with id "root"')

// No StrictMode: it starts every screen twice in development, and the spec asks that the
// list load once when its screen opens.
createRoot(root).render(
  <NewsWireApp useCases={browserUseCases({ apiUrl: import.meta.env.VITE_API_URL ?? '' })} />,
)
