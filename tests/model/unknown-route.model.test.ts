import { createActor } from 'xstate'
import { unknownRouteMachine } from '@/ui/shared/not-available.machine'
import { provideUnknownRoute } from '@/ui/shared/not-available.provide'
import { NOTICES } from '@/ui/shared/notices'
import { runPath } from './machine-rig'
import { CoverageRecorder, describePath, formatCoverage, transitionPaths } from './model-harness'
import { unknownRouteModel } from './models'

const coverage = new CoverageRecorder(unknownRouteMachine)
const paths = transitionPaths(unknownRouteModel)

describe('unknown route machine, model-based', () => {
  it.each(paths.map((path) => [describePath(unknownRouteModel, path), path] as const))(
    '%s',
    async (_, path) => {
      await runPath(
        unknownRouteModel,
        path,
        coverage,
        (rig) =>
          createActor(provideUnknownRoute(rig.services), { inspect: coverage.inspect }).start(),
        {
          leaving: ({ effects }) => {
            expect(effects.toasts).toEqual([{ kind: 'error', message: NOTICES.notAvailable }])
            expect(effects.navigations).toEqual([{ to: '/', replace: true }])
          },
        },
      )
    },
  )

  it('visits every state and takes every transition', () => {
    const report = coverage.report()
    console.info(formatCoverage(unknownRouteMachine, report))
    expect(report.states.missed).toEqual([])
    expect(report.transitions.missed).toEqual([])
  })
})
