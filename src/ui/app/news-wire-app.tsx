import { useEffect, useState } from 'react'
import { BrowserRouter, MemoryRouter, useNavigate } from 'react-router-dom'
import type { UseCases } from '@/application/use-cases'
import { AppServicesContext } from '@/ui/app/app-context'
import { createAppServices, type AppEffects, type AppServices } from '@/ui/app/app-services'
import { AppRoutes } from '@/ui/app/routes'
import { createToaster, ToasterContext } from '@/ui/app/toaster'
import { localDraftStorage, type DraftStorage } from '@/ui/shared/draft-storage'
import { InspectContext, type Inspect } from '@/ui/shared/inspection'
import type { NavigateParams } from '@/ui/shared/machine-effects'

export interface NewsWireAppProps {
  readonly useCases: UseCases
  /** For tests: start at these paths in memory instead of the browser's address bar. */
  readonly initialEntries?: string[]
  /** For tests: replaces the toast or navigation effect. */
  readonly effects?: Partial<AppEffects>
  /** Watches every machine: the inspector in development (`?inspect`), a recorder in tests. */
  readonly inspect?: Inspect
  /** Where the forms keep drafts; the browser's local storage unless a test passes its own. */
  readonly drafts?: DraftStorage
}

interface Navigator {
  navigate: (params: NavigateParams) => void
}

function createApp({ useCases, effects, inspect, drafts }: NewsWireAppProps) {
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
    { inspect, drafts: drafts ?? localDraftStorage() },
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
  return props.initialEntries ? (
    <MemoryRouter initialEntries={props.initialEntries}>{content}</MemoryRouter>
  ) : (
    <BrowserRouter>{content}</BrowserRouter>
  )
}
