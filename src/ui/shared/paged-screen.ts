import type { AnyStateMachine, ContextFrom, InputFrom, StateValueFrom } from 'xstate'
import type { ScreenServices } from '@/ui/shared/app-context'
import { useProvidedMachine } from '@/ui/shared/app-context'
import { useInspectedMachine } from '@/ui/shared/inspection'

/** How a paged screen's machine starts: loading, or with the page the server rendered. */
export type PagedStart<Machine extends AnyStateMachine> =
  | { readonly input: InputFrom<Machine> }
  | {
      /** The context the rendered page gives. */
      readonly rendered: ContextFrom<Machine>
      /** The state it is shown in; `ready` unless the screen says otherwise. */
      readonly value?: StateValueFrom<Machine>
    }

/**
 * A paged screen's machine (see paged-list.fragment.ts): it starts `ready` with the page the
 * server rendered, fetching nothing, or else loads its first page from `input`.
 */
export function usePagedMachine<Machine extends AnyStateMachine>(
  provide: (services: ScreenServices) => Machine,
  start: PagedStart<Machine>,
) {
  const machine = useProvidedMachine(provide)
  return useInspectedMachine(
    machine,
    'input' in start
      ? { input: start.input }
      : {
          snapshot: machine.resolveState({
            value: start.value ?? 'ready',
            context: start.rendered,
          }),
        },
  )
}
