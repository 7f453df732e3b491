import { useEffect, useState, type ComponentType, type ReactNode } from 'react'
import { BrowserRouter, useNavigate } from 'react-router-dom'
import type { UseCases } from '@/application/use-cases'
import type { NewsChangeFeed } from '@/domain/ports/news-changes.port'
import { AppServicesContext } from '@/ui/shared/app-context'
import { createAppServices, type AppEffects, type AppServices } from '@/ui/shared/app-services'
import type { PageData } from '@/ui/shared/page-data'
import { AppRoutes } from '@/ui/app/routes'
import { createToaster, ToasterContext } from '@/ui/app/toaster'
import type { DraftStorage } from '@/ui/shared/draft-storage'
import { InspectContext, type Inspect } from '@/ui/shared/inspection'
import type { NavigateParams } from '@/ui/shared/machine-effects'

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

function createApp({ useCases, effects, inspect, drafts, pageData, changes }: NewsWireAppProps) {
  // Machines navigate through whatever the router last handed over (see RouterBridge).
  const navigator: Navigator = { navigate: () => undefined }
  // A toast's button acts through the services, which are made below with the toaster.
  const buttons: { perform: AppServices['perform'] } = { perform: () => undefined }
  const toaster = createToaster((intent) => buttons.perform(intent))
  const services = createAppServices(
    useCases,
    {
      showToast: effects?.showToast ?? toaster.show,
      navigate: effects?.navigate ?? ((params) => navigator.navigate(params)),
    },
    { inspect, drafts, pageData, changes },
  )
  buttons.perform = services.perform
  return { services, navigator, toaster }
}

/** Hands the router's navigate function to the machines' navigate effect. */
function RouterBridge({ navigator }: { readonly navigator: Navigator }) {
  const navigate = useNavigate()
  useEffect(() => {
    navigator.navigate = ({ to, replace }) => void navigate(to, { replace })
  }, [navigate, navigator])
  return null
}

/** The whole single-page app, given the core's use cases. */
export function NewsWireApp(props: NewsWireAppProps) {
  const [{ services, navigator, toaster }] = useState(() => createApp(props))
  useEffect(() => () => void services.store.stop(), [services])
  // Effects run in the browser only: the live stream opens once the page has hydrated.
  useEffect(() => services.followChanges(), [services])

  const content = (
    <AppServicesContext value={services}>
      <ToasterContext value={toaster}>
        <InspectContext value={props.inspect}>
          <RouterBridge navigator={navigator} />
          <AppRoutes />
        </InspectContext>
      </ToasterContext>
    </AppServicesContext>
  )
  const Router = props.router ?? BrowserRouter
  return <Router>{content}</Router>
}
