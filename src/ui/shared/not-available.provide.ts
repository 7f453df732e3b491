import type { AppServices } from '@/ui/shared/app-services'
import { unknownRouteMachine } from '@/ui/shared/not-available.machine'

export const provideUnknownRoute = ({ edge }: AppServices) =>
  unknownRouteMachine.provide({ actions: edge })
