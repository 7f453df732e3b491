// @vitest-environment jsdom
import { screen, within } from '@testing-library/react'
import { DEFAULT_PAGE_SIZE } from '@/domain/ports/news-repository.port'
import { searchMachine } from '@/ui/features/search/search.machine'
import { CoverageRecorder, expectCoverage, itTakesEachPath } from '../model/model-harness'
import { searchModel } from '../model/models'
import { pressing, runScreenPath, type ScreenDriver, screenPaths } from './support/screen-paths'
import { manyNews } from './support/render-app'

// Every post's title holds 'Post': two pages of results, a full first page and the rest.
const POSTS = manyNews(DEFAULT_PAGE_SIZE + 6)
const coverage = new CoverageRecorder(searchMachine)

const results = () => within(screen.getByRole('list', { name: /^Results for/ }))
const status = () => screen.getByRole('status')

const driver = (q: string): ScreenDriver => ({
  open: () => ({ url: `/search?q=${encodeURIComponent(q)}`, seed: POSTS }),
  act: pressing({ 'search.retry': 'Retry', 'search.loadMore': 'Load more' }),
  see: {
    loading: async () => {
      expect(status()).toHaveTextContent('Searching…')
      expect(screen.queryByRole('article')).not.toBeInTheDocument()
    },
    failed: async () => {
      expect(screen.getByRole('alert')).toHaveTextContent('The results could not be loaded.')
      expect(screen.getByRole('button', { name: 'Retry' })).toBeVisible()
      expect(status()).toHaveTextContent('')
    },
    ready: async ({ expected }) => {
      const more = expected.context.next !== undefined
      const shown = more ? DEFAULT_PAGE_SIZE : POSTS.length
      expect(await results().findAllByRole('article')).toHaveLength(shown)
      expect(status()).toHaveTextContent(
        more ? `More than ${DEFAULT_PAGE_SIZE} posts found` : `${POSTS.length} posts found`,
      )
      // The word asked for is marked in each title, the rest of the title is not.
      const title = screen.getByRole('heading', { level: 2, name: 'Post number 1' })
      expect([...title.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['Post'])
      if (more) {
        expect(screen.getByRole('button', { name: 'Load more' })).toHaveAttribute(
          'aria-disabled',
          'false',
        )
      } else {
        expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument()
      }
    },
    loadingMore: async () => {
      expect(screen.getByRole('button', { name: 'Loading…' })).toHaveAttribute('aria-busy', 'true')
      expect(results().getAllByRole('article')).toHaveLength(DEFAULT_PAGE_SIZE)
    },
    loadMoreFailed: async () => {
      expect(screen.getByRole('alert')).toHaveTextContent('More results could not be loaded.')
      expect(results().getAllByRole('article')).toHaveLength(DEFAULT_PAGE_SIZE)
      expect(screen.getByRole('button', { name: 'Load more' })).toBeVisible()
    },
    refused: async () => {
      expect(screen.getByRole('heading', { level: 1, name: 'Search' })).toBeInTheDocument()
      expect(status()).toHaveTextContent('Type a word to search for')
      expect(screen.queryByRole('article')).not.toBeInTheDocument()
    },
  },
})

/** 'POST' finds every post, its case aside; a blank query is refused before any search. */
const QUERIES = [
  { name: 'a query that finds two pages', q: 'POST' },
  { name: 'a blank query', q: '' },
] as const

describe('search: shows what each state of its machine means, along every path', () => {
  for (const { name, q } of QUERIES) {
    const model = searchModel(q)
    describe(name, () => {
      itTakesEachPath(
        model,
        screenPaths(model, () => true),
        async (path) => {
          await runScreenPath(model, path, driver(q), coverage)
        },
      )
    })
  }

  it('reaches every state, and every transition a button can take, through the screen', () =>
    expectCoverage(coverage, {}, 'through the screen: '))
})
