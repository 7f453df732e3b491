import { createActor } from 'xstate'
import { articleMachine } from '@/ui/features/article/article.machine'
import { provideArticle } from '@/ui/features/article/article.provide'
import { NOTICES } from '@/ui/shared/notices'
import { runPath, type StateChecks } from './machine-rig'
import { CoverageRecorder, describePath, formatCoverage, transitionPaths } from './model-harness'
import { articleModel, HARBOUR } from './models'

const coverage = new CoverageRecorder(articleMachine)
const model = articleModel(HARBOUR._id)
const paths = transitionPaths(model)

const checks: StateChecks = {
  loading: ({ rig }) =>
    expect(rig.ports.pending('get').map((call) => call.input)).toEqual([HARBOUR._id]),
  failed: ({ effects }) => expect(effects.toasts).toEqual([]),
  notAvailable: ({ effects }) => {
    expect(effects.toasts).toEqual([{ kind: 'error', message: NOTICES.notAvailable }])
    expect(effects.navigations).toEqual(['/'])
  },
  viewing: ({ event, rig, effects }) => {
    expect(rig.services.store.getSnapshot().context.newsItem).toEqual(HARBOUR)
    const deleteFailed = event.type.startsWith('xstate.error.')
    expect(effects.toasts).toEqual(
      deleteFailed ? [{ kind: 'error', message: NOTICES.deleteFailed }] : [],
    )
  },
  deleting: ({ rig }) =>
    expect(rig.ports.pending('remove').map((call) => call.input)).toEqual([HARBOUR._id]),
  deleted: ({ rig, effects }) => {
    expect(effects.toasts).toEqual([{ kind: 'success', message: NOTICES.deleted }])
    expect(effects.navigations).toEqual(['/'])
    expect(rig.services.store.getSnapshot().context.newsItem).toBeNull()
  },
}

describe('article machine, model-based', () => {
  it.each(paths.map((path) => [describePath(model, path), path] as const))(
    '%s',
    async (_, path) => {
      await runPath(
        model,
        path,
        coverage,
        (rig) =>
          createActor(provideArticle(rig.services), {
            input: { id: HARBOUR._id },
            inspect: coverage.inspect,
          }).start(),
        checks,
      )
    },
  )

  it('visits every state and takes every transition', () => {
    const report = coverage.report()
    console.info(formatCoverage(articleMachine, report))
    expect(report.states.missed).toEqual([])
    expect(report.transitions.missed).toEqual([])
  })
})
