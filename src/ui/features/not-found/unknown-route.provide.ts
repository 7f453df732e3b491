import type { AppServices } from '@/ui/shared/app-services'
import { unknownRouteMachine } from '@/ui/features/not-found/unknown-route.machine'

export const provideUnknownRoute = ({ edge }: AppServices) =>
  unknownRouteMachine.provide({ actions: edge })
