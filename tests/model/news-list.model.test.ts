import { provideNewsList } from '@/ui/features/news-list/news-list.provide'
import { describeModelPaths, pendingArgs, type StateChecks } from './machine-rig'
import { FIRST_PAGE, LAST_PAGE, newsListModel } from './models'

const checks: StateChecks = {
  // A reload abandons the load in flight (its answer reaches no one) and asks for the first
  // page again.
  loading: ({ rig }) => {
    expect(pendingArgs(rig.news, 'list').at(-1)).toEqual([{ limit: 24 }])
  },
  // A failed load changes nothing the store shows: nothing, or the pages loaded before.
  failed: ({ rig }) =>
    expect([[], FIRST_PAGE.items, [...FIRST_PAGE.items, ...LAST_PAGE.items]]).toContainEqual(
      rig.services.store.getSnapshot().context.news,
    ),
  ready: ({ snapshot, rig }) => {
    const shown = rig.services.store.getSnapshot().context.news
    const more = snapshot.context.next !== undefined
    expect(shown).toEqual(more ? FIRST_PAGE.items : [...FIRST_PAGE.items, ...LAST_PAGE.items])
  },
  loadingMore: ({ rig }) => {
    expect(pendingArgs(rig.news, 'list').at(-1)).toEqual([{ cursor: FIRST_PAGE.next, limit: 24 }])
  },
  loadMoreFailed: ({ rig }) => {
    expect(rig.services.store.getSnapshot().context.news).toEqual(FIRST_PAGE.items)
  },
}

describeModelPaths('news list machine, model-based', newsListModel, provideNewsList, { checks })
