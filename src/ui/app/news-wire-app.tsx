import { useEffect, useState, type ComponentType, type ReactNode } from 'react'
import { BrowserRouter, useNavigate } from 'react-router-dom'
import type { UseCases } from '@/application/use-cases'
import type { NewsChangeFeed } from '@/domain/ports/news-changes.port'
import { AppServicesContext } from '@/ui/shared/app-context'
import { createAppServices, type AppEffects } from '@/ui/shared/app-services'
import type { PageData } from '@/ui/shared/page-data'
import { AppRoutes } from '@/ui/app/routes'
import { createToaster, ToasterContext } from '@/ui/app/toaster'
import type { DraftStorage } from '@/ui/shared/draft-storage'
import { InspectContext, type Inspect } from '@/ui/shared/inspection'
import type { NavigateParams } from '@/ui/shared/machine-effects'
import type { NewsStoreRef } from '@/ui/store/news-store.provide'
import { NewsStore, NewsStoreProvider } from '@/ui/store/news-store.provider'

export interface NewsWireAppProps {
  readonly useCases: UseCases
  /**
   * The router the app runs in: the browser's address bar unless given. The server renders in
   * a StaticRouter at the requested URL, tests in a MemoryRouter; choosing it outside keeps the
   * routers the browser never uses out of its bundle.
   */
  readonly router?: ComponentType<{ readonly children: ReactNode }>
  /** What the server rendered the page with; the first screen starts from it. */
  readonly pageData?: PageData
  /** For tests: replaces the toast or navigation effect. */
  readonly effects?: Partial<AppEffects>
  /** Watches every machine: the inspector in development (`?inspect`), a recorder in tests. */
  readonly inspect?: Inspect
  /** Where the forms keep drafts; the browser's local storage unless a test passes its own. */
  readonly drafts?: DraftStorage
  /**
   * The site's live changes, which the app follows once it runs (never while the server
   * renders); without it, it shows only what it loads.
   */
  readonly changes?: NewsChangeFeed
}

/** What the app's edge reaches through components inside the router and the store. */
interface Bridge {
  navigate: (params: NavigateParams) => void
  store: NewsStoreRef | undefined
}

function createApp({ useCases, effects, drafts, pageData }: NewsWireAppProps) {
  // Machines navigate through whatever the router last handed over (see AppBridge).
  const bridge: Bridge = { navigate: () => undefined, store: undefined }
  const navigate = effects?.navigate ?? ((params: NavigateParams) => bridge.navigate(params))
  // A toast's button sends its event to the news store, or goes to its path.
  const toaster = createToaster((intent) =>
    intent.type === 'navigate' ? navigate({ to: intent.to }) : bridge.store?.send(intent),
  )
  const services = createAppServices(
    useCases,
    { showToast: effects?.showToast ?? toaster.show, navigate },
    { drafts, pageData },
  )
  return { services, bridge, toaster }
}

/** Hands the router's navigate function and the news store to the app's edge. */
function AppBridge({ bridge }: { readonly bridge: Bridge }) {
  const navigate = useNavigate()
  const store = NewsStore.useActorRef()
  useEffect(() => {
    bridge.navigate = ({ to, replace }) => void navigate(to, { replace })
    bridge.store = store
  }, [navigate, store, bridge])
  return null
}

/** The whole single-page app, given the core's use cases. */
export function NewsWireApp(props: NewsWireAppProps) {
  const [{ services, bridge, toaster }] = useState(() => createApp(props))

  const content = (
    <AppServicesContext value={services}>
      <NewsStoreProvider
        services={services}
        pageData={props.pageData}
        changes={props.changes}
        inspect={props.inspect}
      >
        <ToasterContext value={toaster}>
          <InspectContext value={props.inspect}>
            <AppBridge bridge={bridge} />
            <AppRoutes />
          </InspectContext>
        </ToasterContext>
      </NewsStoreProvider>
    </AppServicesContext>
  )
  const Router = props.router ?? BrowserRouter
  return <Router>{content}</Router>
}
