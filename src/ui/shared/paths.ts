/** Every URL of the app, built in one place; ids are always encoded. */
const news = (id: string) => `/news/${encodeURIComponent(id)}`

export const paths = {
  home: () => '/',
  addNews: () => '/news/new',
  article: news,
  editNews: (id: string) => `${news(id)}/edit`,
  history: (id: string) => `${news(id)}/history`,
  trash: () => '/trash',
  contact: () => '/contact',
} as const

/** The route patterns React Router matches, beside the builders above. */
export const routes = {
  addNews: 'news/new',
  article: 'news/:id',
  editNews: 'news/:id/edit',
  history: 'news/:id/history',
  trash: 'trash',
  contact: 'contact',
} as const
