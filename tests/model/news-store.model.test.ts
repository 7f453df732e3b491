import type { NewsItem } from '@/domain/news-item.entity'
import { NOTICES } from '@/ui/shared/notices'
import type { NewsStoreContext } from '@/ui/shared/news-store.machine'
import { newsStoreMachine } from '@/ui/shared/news-store.machine'
import { overlay } from '@/ui/shared/news-store.logic'
import { runPath, type StateChecks } from './machine-rig'
import { CoverageRecorder, describePath, formatCoverage, transitionPaths } from './model-harness'
import { newsStoreModel } from './models'

const coverage = new CoverageRecorder(newsStoreMachine)
const paths = transitionPaths(newsStoreModel)

function shown(context: NewsStoreContext): NewsItem[] {
  return [...context.news, ...(context.newsItem === null ? [] : [context.newsItem])]
}

const checks: StateChecks = {
  saving: ({ snapshot, rig }) => {
    // One edit at a time goes to the server: the oldest waiting one.
    const [first] = (snapshot.context as NewsStoreContext).pending
    expect(rig.ports.pending('update').map((call) => call.input)).toEqual([
      { id: first?.id, changes: first?.changes },
    ])
  },
  idle: ({ event, snapshot, previous, effects, rig }) => {
    const context = snapshot.context as NewsStoreContext
    expect(context.pending).toEqual([])
    expect(rig.ports.pending('update')).toEqual([])
    if (event.type.startsWith('xstate.done.')) {
      expect(effects.toasts).toEqual([{ kind: 'success', message: NOTICES.edited }])
    } else if (event.type.startsWith('xstate.error.')) {
      // A failed edit shows the values the server kept again.
      const [failed] = (previous.context as NewsStoreContext).pending
      expect(effects.toasts).toEqual([{ kind: 'error', message: NOTICES.tryAgainLater }])
      for (const item of shown(context).filter((each) => each._id === failed?.id)) {
        expect(item).toEqual(failed?.stored)
      }
    } else {
      expect(effects.toasts).toEqual([])
    }
  },
}

/** Whatever the store shows is the server's values with the waiting edits laid over. */
function showsPendingEdits(context: NewsStoreContext) {
  for (const item of shown(context)) {
    const edits = context.pending.filter((edit) => edit.id === item._id)
    if (edits.length > 0) expect(item).toEqual(overlay(edits[0]?.stored ?? item, edits))
  }
}

describe('news store machine, model-based', () => {
  it.each(paths.map((path) => [describePath(newsStoreModel, path), path] as const))(
    '%s',
    async (_, path) => {
      await runPath(newsStoreModel, path, coverage, (rig) => rig.services.store, {
        saving: (step) => {
          checks.saving?.(step)
          showsPendingEdits(step.snapshot.context as NewsStoreContext)
        },
        idle: (step) => checks.idle?.(step),
      })
    },
  )

  it('visits every state and takes every transition', () => {
    const report = coverage.report()
    console.info(formatCoverage(newsStoreMachine, report))
    expect(report.states.missed).toEqual([])
    expect(report.transitions.missed).toEqual([])
  })
})
