import { createContext, useContext, useState } from 'react'
import type { AppServices } from '@/ui/shared/app-services'

export const AppServicesContext = createContext<AppServices | null>(null)

export function useAppServices(): AppServices {
  const services = useContext(AppServicesContext)
  if (services === null) throw new Error('useAppServices needs <NewsWireApp>')
  return services
}

/**
 * A screen's machine with its effects filled in, made once per screen. Each screen keeps its
 * `provide` beside it, so that a screen's machine loads with the screen's own code.
 */
export function useProvidedMachine<Machine>(provide: (services: AppServices) => Machine): Machine {
  const services = useAppServices()
  const [machine] = useState(() => provide(services))
  return machine
}
