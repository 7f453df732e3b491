import type { ComponentType } from 'react'
import { Route, Routes } from 'react-router-dom'
import { Layout } from '@/ui/app/layout'
import { NewsListPage } from '@/ui/features/news-list/news-list.page'
import { lazyScreen } from '@/ui/shared/lazy-screen'
import { routes } from '@/ui/shared/paths'
import { ScreenBoundary } from '@/ui/shared/screen-error-boundary'

// The home page ships with the app; every other screen is its own chunk, so that formik,
// yup, dayjs, diff and EmailJS never load on '/'.
const AddNewsPage = lazyScreen(
  async () => (await import('@/ui/features/news-form/news-form.page')).AddNewsPage,
)
const EditNewsPage = lazyScreen(
  async () => (await import('@/ui/features/news-form/news-form.page')).EditNewsPage,
)
const ArticlePage = lazyScreen(
  async () => (await import('@/ui/features/article/article.page')).ArticlePage,
)
const HistoryPage = lazyScreen(
  async () => (await import('@/ui/features/history/history.page')).HistoryPage,
)
const TrashPage = lazyScreen(async () => (await import('@/ui/features/trash/trash.page')).TrashPage)
const ChangesPage = lazyScreen(
  async () => (await import('@/ui/features/changes/changes.page')).ChangesPage,
)
const ContactPage = lazyScreen(
  async () => (await import('@/ui/features/contact/contact.page')).ContactPage,
)
const SearchPage = lazyScreen(
  async () => (await import('@/ui/features/search/search.page')).SearchPage,
)
const UnknownRoutePage = lazyScreen(
  async () => (await import('@/ui/shared/not-available.page')).UnknownRoutePage,
)

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Screen page={NewsListPage} />} />
        <Route path={routes.addNews} element={<Screen page={AddNewsPage} />} />
        <Route path={routes.article} element={<Screen page={ArticlePage} />} />
        <Route path={routes.editNews} element={<Screen page={EditNewsPage} />} />
        <Route path={routes.history} element={<Screen page={HistoryPage} />} />
        <Route path={routes.trash} element={<Screen page={TrashPage} />} />
        <Route path={routes.changes} element={<Screen page={ChangesPage} />} />
        <Route path={routes.contact} element={<Screen page={ContactPage} />} />
        <Route path={routes.search} element={<Screen page={SearchPage} />} />
        <Route path="*" element={<Screen page={UnknownRoutePage} />} />
      </Route>
    </Routes>
  )
}

/** A route's screen inside its error boundary (and, for lazy screens, its loading fallback). */
function Screen({ page: Page }: { readonly page: ComponentType }) {
  return (
    <ScreenBoundary>
      <Page />
    </ScreenBoundary>
  )
}
