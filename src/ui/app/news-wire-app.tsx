import { useEffect, useState } from 'react'
import { BrowserRouter, MemoryRouter, useNavigate } from 'react-router-dom'
import type { UseCases } from '@/application/use-cases'
import { AppServicesContext } from '@/ui/app/app-context'
import { createAppServices, type AppEffects } from '@/ui/app/app-services'
import { AppRoutes } from '@/ui/app/routes'
import { showToast } from '@/ui/app/toaster'
import { InspectContext, type Inspect } from '@/ui/shared/inspection'

export interface NewsWireAppProps {
  readonly useCases: UseCases
  /** For tests: start at these paths in memory instead of the browser's address bar. */
  readonly initialEntries?: string[]
  /** For tests: replaces the toast effect. */
  readonly effects?: Partial<AppEffects>
  /** Watches every machine: the inspector in development (`?inspect`), a recorder in tests. */
  readonly inspect?: Inspect
}

interface Navigator {
  navigate: (to: string) => void
}

function createApp({ useCases, effects, inspect }: NewsWireAppProps) {
  // Machines navigate through whatever the router last handed over (see RouterBridge).
  const navigator: Navigator = { navigate: () => undefined }
  const services = createAppServices(
    useCases,
    {
      showToast: effects?.showToast ?? showToast,
      navigate: effects?.navigate ?? ((to) => navigator.navigate(to)),
    },
    { inspect },
  )
  return { services, navigator }
}

/** Hands the router's navigate function to the machines' navigate effect. */
function RouterBridge({ navigator }: { readonly navigator: Navigator }) {
  const navigate = useNavigate()
  useEffect(() => {
    navigator.navigate = (to) => void navigate(to)
  }, [navigate, navigator])
  return null
}

/** The whole single-page app, given the core's use cases. */
export function NewsWireApp(props: NewsWireAppProps) {
  const [{ services, navigator }] = useState(() => createApp(props))
  useEffect(() => () => void services.store.stop(), [services])

  const content = (
    <AppServicesContext value={services}>
      <InspectContext value={props.inspect}>
        <RouterBridge navigator={navigator} />
        <AppRoutes />
      </InspectContext>
    </AppServicesContext>
  )
  return props.initialEntries ? (
    <MemoryRouter initialEntries={props.initialEntries}>{content}</MemoryRouter>
  ) : (
    <BrowserRouter>{content}</BrowserRouter>
  )
}
