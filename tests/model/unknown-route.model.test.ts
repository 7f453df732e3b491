import { provideUnknownRoute } from '@/ui/shared/not-available.provide'
import { NOTICES } from '@/ui/shared/notices'
import { describeModelPaths } from './machine-rig'
import { unknownRouteModel } from './models'

describeModelPaths('unknown route machine, model-based', unknownRouteModel, provideUnknownRoute, {
  checks: {
    leaving: ({ effects }) => {
      expect(effects.toasts).toEqual([{ kind: 'error', message: NOTICES.notAvailable }])
      expect(effects.navigations).toEqual([{ to: '/', replace: true }])
    },
  },
})
