import { createActor, waitFor } from 'xstate'
import { DEFAULT_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import { SEARCH_RULE } from '@/domain/rules/search-query.rules'
import { searchMachine, type SearchContext } from '@/ui/features/search/search.machine'
import { provideSearch } from '@/ui/features/search/search.provide'
import { actorOf, pendingArgs, createRig, runPath, type StateChecks } from './machine-rig'
import { CoverageRecorder, transitionPaths, itTakesEachPath, expectCoverage } from './model-harness'
import { FIRST_PAGE, LAST_PAGE, searchModel } from './models'

const coverage = new CoverageRecorder(searchMachine)

/** A query the rules accept, as typed: the search asks for it as it is, trimmed by the rules. */
const QUERY = '  Harbour  '
const ASKED = { text: 'Harbour', terms: ['harbour'] }

const context = (snapshot: { readonly context: unknown }) => snapshot.context as SearchContext

const checks: StateChecks = {
  loading: ({ rig }) => {
    expect(pendingArgs(rig.news, 'search')).toEqual([[ASKED, { limit: DEFAULT_PAGE_SIZE }]])
  },
  failed: ({ snapshot }) => expect(context(snapshot).items).toEqual([]),
  ready: ({ snapshot }) => {
    const { items, next } = context(snapshot)
    expect(items).toEqual(
      next === undefined ? [...FIRST_PAGE.items, ...LAST_PAGE.items] : FIRST_PAGE.items,
    )
  },
  loadingMore: ({ rig }) => {
    expect(pendingArgs(rig.news, 'search')).toEqual([
      [ASKED, { cursor: FIRST_PAGE.next, limit: DEFAULT_PAGE_SIZE }],
    ])
  },
  loadMoreFailed: ({ snapshot }) => expect(context(snapshot).items).toEqual(FIRST_PAGE.items),
  refused: ({ rig, snapshot }) => {
    // The reason comes from the domain's rules, and nothing is asked of the store.
    expect(context(snapshot).refusal).toBeDefined()
    expect(context(snapshot).items).toEqual([])
    expect(rig.news.calls).toEqual([])
  },
}

/** A query accepted, and queries the rules refuse: blank, and with a control character. */
const QUERIES = [
  { name: 'an accepted query', q: QUERY, refusal: undefined },
  { name: 'a blank query', q: '   ', refusal: SEARCH_RULE.required },
  { name: 'a query with a control character', q: 'harbour\u0007', refusal: 'control' },
] as const

describe('search machine, model-based', () => {
  for (const { name, q, refusal } of QUERIES) {
    const model = searchModel(q)
    describe(name, () => {
      itTakesEachPath(model, transitionPaths(model), async (path) => {
        await runPath(model, path, coverage, actorOf(model, coverage, provideSearch), {
          ...checks,
          refused: (step) => {
            checks.refused?.(step)
            expect(context(step.snapshot).refusal).toContain(refusal)
          },
        })
      })
    })
  }

  it('visits every state and takes every transition', () => expectCoverage(coverage))
})

describe('search machine, beyond the model', () => {
  it('finds nothing for a query without a word, and asks no store', async () => {
    const rig = createRig(new CoverageRecorder(searchMachine))
    const actor = createActor(provideSearch(rig.services), { input: { q: '?!…' } }).start()

    const done = await waitFor(actor, (snapshot) => snapshot.matches('ready'))

    expect(done.context).toMatchObject({ items: [], next: undefined, refusal: undefined })
    expect(done.context.query?.terms).toEqual([])
    expect(rig.news.calls).toEqual([])
    actor.stop()
    rig.services.store.stop()
  })
})
