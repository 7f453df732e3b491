import { useMachine } from '@xstate/react'
import { createContext, useContext } from 'react'
import type { ActorOptions, AnyStateMachine, InspectionEvent, Observer } from 'xstate'

/**
 * An observer of every actor's events and snapshots: in development, the Stately inspector
 * (`?inspect`, see docs/statecharts/README.md); in tests, a coverage recorder.
 */
export type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void)

export const InspectContext = createContext<Inspect | undefined>(undefined)

/** `useMachine`, with the app's inspector attached when it has one. */
export function useInspectedMachine<Machine extends AnyStateMachine>(
  machine: Machine,
  options: ActorOptions<Machine> = {},
) {
  const inspect = useContext(InspectContext)
  return useMachine(machine, inspect === undefined ? options : { ...options, inspect })
}
