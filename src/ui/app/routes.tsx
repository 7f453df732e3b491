import { lazy, Suspense } from 'react'
import { Route, Routes } from 'react-router-dom'
import { Layout } from '@/ui/app/layout'
import { NewsListPage } from '@/ui/features/news-list/news-list.page'

// The home page ships with the app; every other screen is its own chunk, so that formik,
// yup, dayjs and EmailJS never load on '/'.
const AddNewsPage = lazy(async () => ({
  default: (await import('@/ui/features/news-form/news-form.page')).AddNewsPage,
}))
const EditNewsPage = lazy(async () => ({
  default: (await import('@/ui/features/news-form/news-form.page')).EditNewsPage,
}))
const ArticlePage = lazy(async () => ({
  default: (await import('@/ui/features/article/article.page')).ArticlePage,
}))
const ContactPage = lazy(async () => ({
  default: (await import('@/ui/features/contact/contact.page')).ContactPage,
}))
const UnknownRoutePage = lazy(async () => ({
  default: (await import('@/ui/features/not-found/unknown-route.page')).UnknownRoutePage,
}))

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<NewsListPage />} />
        <Route path="news/new" element={<Lazy page={AddNewsPage} />} />
        <Route path="news/:id" element={<Lazy page={ArticlePage} />} />
        <Route path="news/:id/edit" element={<Lazy page={EditNewsPage} />} />
        <Route path="contact" element={<Lazy page={ContactPage} />} />
        <Route path="*" element={<Lazy page={UnknownRoutePage} />} />
      </Route>
    </Routes>
  )
}

function Lazy({ page: Page }: { readonly page: React.ComponentType }) {
  return (
    <Suspense fallback={<p role="status">Loading…</p>}>
      <Page />
    </Suspense>
  )
}
