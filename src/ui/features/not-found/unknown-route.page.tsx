import { useMachine } from '@xstate/react'
import { useProvidedMachine } from '@/ui/app/app-context'
import { provideUnknownRoute } from '@/ui/features/not-found/unknown-route.provide'

/** Runs the machine that shows the 'not available' toast and goes home. */
export function UnknownRoutePage() {
  useMachine(useProvidedMachine(provideUnknownRoute))
  return null
}
