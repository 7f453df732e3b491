import { useEffect, useState, type ComponentType, type ReactNode } from 'react'
import { BrowserRouter, useNavigate } from 'react-router-dom'
import type { UseCases } from '@/application/use-cases'
import type { NewsChangeFeed } from '@/domain/ports/news-changes.port'
import { AppServicesContext } from '@/ui/shared/app-context'
import { createAppServices, type AppEffects } from '@/ui/shared/app-services'
import {
  followChanges,
  NewsStore,
  performWith,
  provideNewsStore,
  storeInputOf,
} from '@/ui/store/news-store'
import type { PageData } from '@/ui/shared/page-data'
import { AppRoutes } from '@/ui/app/routes'
import { createToaster, ToasterContext } from '@/ui/app/toaster'
import type { DraftStorage } from '@/ui/shared/draft-storage'
import { InspectContext, type Inspect } from '@/ui/shared/inspection'
import type { NavigateParams, ToastIntent } from '@/ui/shared/machine-effects'

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

interface Navigator {
  navigate: (params: NavigateParams) => void
}

function createApp({ useCases, effects, drafts, pageData }: NewsWireAppProps) {
  // Machines navigate through whatever the router last handed over (see RouterBridge).
  const navigator: Navigator = { navigate: () => undefined }
  // A toast's button acts on the news store, which StoreBridge hands over once it runs.
  const buttons: { perform: (intent: ToastIntent) => void } = { perform: () => undefined }
  const toaster = createToaster((intent) => buttons.perform(intent))
  const services = createAppServices(
    useCases,
    {
      showToast: effects?.showToast ?? toaster.show,
      navigate: effects?.navigate ?? ((params) => navigator.navigate(params)),
    },
    drafts,
    pageData,
  )
  const store = { logic: provideNewsStore(services), options: { input: storeInputOf(pageData) } }
  return { services, navigator, toaster, buttons, store }
}

/** Hands the router's navigate function to the machines' navigate effect. */
function RouterBridge({ navigator }: { readonly navigator: Navigator }) {
  const navigate = useNavigate()
  useEffect(() => {
    navigator.navigate = ({ to, replace }) => void navigate(to, { replace })
  }, [navigate, navigator])
  return null
}

/**
 * Hands the news store to the toasts' buttons, and follows the site's live changes into it.
 * Effects run in the browser only: the live stream opens once the page has hydrated.
 */
function StoreBridge({ app, props }: { readonly app: App; readonly props: NewsWireAppProps }) {
  const store = NewsStore.useActorRef()
  const { changes, inspect, pageData } = props
  useEffect(() => {
    app.buttons.perform = performWith(store, app.services)
    return followChanges(store, changes, { inspect, seq: pageData?.seq })
  }, [app, store, changes, inspect, pageData])
  return null
}

type App = ReturnType<typeof createApp>

/** The whole single-page app, given the core's use cases. */
export function NewsWireApp(props: NewsWireAppProps) {
  const [app] = useState(() => createApp(props))
  const content = (
    <AppServicesContext value={app.services}>
      <NewsStore.Provider
        logic={app.store.logic}
        options={{ ...app.store.options, inspect: props.inspect }}
      >
        <ToasterContext value={app.toaster}>
          <InspectContext value={props.inspect}>
            <RouterBridge navigator={app.navigator} />
            <StoreBridge app={app} props={props} />
            <AppRoutes />
          </InspectContext>
        </ToasterContext>
      </NewsStore.Provider>
    </AppServicesContext>
  )
  const Router = props.router ?? BrowserRouter
  return <Router>{content}</Router>
}
