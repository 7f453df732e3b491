import { createContext, useContext, useEffect, useState } from 'react'
import type { AppServices } from '@/ui/shared/app-services'
import type { PageDataClaims } from '@/ui/shared/page-data'
import type { NewsStoreRef } from '@/ui/store/news-store.provide'
import { NewsStore } from '@/ui/store/news-store.provider'

export const AppServicesContext = createContext<AppServices | null>(null)

export function useAppServices(): AppServices {
  const services = useContext(AppServicesContext)
  if (services === null) throw new Error('useAppServices needs <NewsWireApp>')
  return services
}

/** What a screen's machine is provided with: the app's services and the news store. */
export interface ScreenServices extends AppServices {
  readonly store: NewsStoreRef
}

/**
 * A screen's machine with its effects filled in, made once per screen. Each screen keeps its
 * `provide` beside it, so that a screen's machine loads with the screen's own code.
 */
export function useProvidedMachine<Machine>(
  provide: (services: ScreenServices) => Machine,
): Machine {
  const services = useAppServices()
  const store = NewsStore.useActorRef()
  const [machine] = useState(() => provide({ ...services, store }))
  return machine
}

/**
 * What the server rendered this screen with (`claim` picks it out of the page data), read
 * when the screen first renders; undefined when it has none. The page data is let go once the
 * screen has mounted, not when it is read (see PageDataClaims).
 */
export function usePageData<T>(claim: (pageData: PageDataClaims) => T | undefined): T | undefined {
  const { pageData } = useAppServices()
  const [rendered] = useState(() => claim(pageData))
  useEffect(() => {
    if (rendered !== undefined) pageData.release()
  }, [pageData, rendered])
  return rendered
}
