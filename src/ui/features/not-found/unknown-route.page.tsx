import { useProvidedMachine } from '@/ui/app/app-context'
import { provideUnknownRoute } from '@/ui/features/not-found/unknown-route.provide'
import { useInspectedMachine } from '@/ui/shared/inspection'

/** Runs the machine that shows the 'not available' toast and goes home. */
export function UnknownRoutePage() {
  useInspectedMachine(useProvidedMachine(provideUnknownRoute))
  return null
}
