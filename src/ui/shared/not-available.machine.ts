import { setup } from 'xstate'
import { effectStubs, leaveForHome } from '@/ui/shared/machine-effects'

/** Any path the app does not know: the spec's 'not available' toast, then home. */
export const unknownRouteMachine = setup({
  actions: { ...effectStubs },
}).createMachine({
  id: 'unknownRoute',
  initial: 'leaving',
  states: {
    leaving: { type: 'final', entry: leaveForHome },
  },
})
