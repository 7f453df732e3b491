import { unknownRouteMachine } from '@/ui/shared/not-available.machine'
import { provideUnknownRoute } from '@/ui/shared/not-available.provide'
import { NOTICES } from '@/ui/shared/notices'
import { actorOf, runPath } from './machine-rig'
import { CoverageRecorder, transitionPaths, itTakesEachPath, expectCoverage } from './model-harness'
import { unknownRouteModel } from './models'

const coverage = new CoverageRecorder(unknownRouteMachine)
const paths = transitionPaths(unknownRouteModel)

describe('unknown route machine, model-based', () => {
  itTakesEachPath(unknownRouteModel, paths, async (path) => {
    await runPath(
      unknownRouteModel,
      path,
      coverage,
      actorOf(unknownRouteModel, coverage, provideUnknownRoute),
      {
        leaving: ({ effects }) => {
          expect(effects.toasts).toEqual([{ kind: 'error', message: NOTICES.notAvailable }])
          expect(effects.navigations).toEqual([{ to: '/', replace: true }])
        },
      },
    )
  })

  it('visits every state and takes every transition', () => expectCoverage(coverage))
})
