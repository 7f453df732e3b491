/**
 * The tests' posts: one builder with readable defaults, which a test overrides only in what it
 * is about.
 */
import type { NewsItem } from '@/domain/news-item.entity'
import type { StoredNews } from '@/domain/rules/news-history.rules'

/** A post created at midday UTC, so that its YYYY/MM/DD is the same from UTC-11 to UTC+11. */
export function newsItem(overrides: Partial<NewsItem> = {}): NewsItem {
  return {
    _id: 'harbour-1',
    title: 'Harbour reopens after the storm',
    body: 'Boats are back in the water.\nThe quay has been repaired.',
    author: 'Ada Lovelace',
    createdAt: '2024-03-15T12:00:00.000Z',
    updatedAt: '2024-03-15T12:00:00.000Z',
    revision: 1,
    ...overrides,
  }
}

/** Post `n` of a numbered set: `news-n`, written on day `n` of January 2024. */
export function numberedNewsItem(n: number, overrides: Partial<NewsItem> = {}): NewsItem {
  const day = new Date(Date.UTC(2024, 0, n)).toISOString()
  return newsItem({
    _id: `news-${n}`,
    title: `Title ${n}`,
    body: `Body ${n}`,
    author: `Author ${n}`,
    createdAt: day,
    updatedAt: day,
    ...overrides,
  })
}

/** `count` posts, newest first: post-1 is the newest. */
export function manyNews(count: number): NewsItem[] {
  return Array.from({ length: count }, (_, index) => {
    const n = index + 1
    const day = new Date(Date.UTC(2024, 0, 1, 12) - index * 86_400_000).toISOString()
    return newsItem({
      _id: `post-${n}`,
      title: `Post number ${n}`,
      body: `Body of post ${n}.`,
      author: `Author ${n}`,
      createdAt: day,
      updatedAt: day,
    })
  })
}

/** A live post as a store keeps it, to write straight through a store's transaction. */
export function storedNews(id: string, fields: Partial<StoredNews> = {}): StoredNews {
  const at = '2026-01-01T09:30:00.123Z'
  return {
    ...newsItem({ _id: id, title: `Title of ${id}`, body: `Body of ${id}`, author: 'Ada' }),
    createdAt: at,
    updatedAt: at,
    deletedAt: null,
    ...fields,
  }
}
