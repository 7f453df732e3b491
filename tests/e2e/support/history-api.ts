import type { NewsDraft, NewsItem } from './news-api'

// Kept beside the post's other writes: the tests import it from here.
export { deleteThroughApi } from './news-api'

/** One version of a post, as GET /api/news/:id/revisions lists it. */
export interface NewsRevision {
  readonly revision: number
  readonly title: string
  readonly action: string
}

/** A change to a post, through the public API, as another client would make it. */
export async function editThroughApi(
  origin: string,
  id: string,
  changes: Partial<NewsDraft>,
): Promise<NewsItem> {
  const response = await fetch(`${origin}/api/news/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(changes),
  })
  if (response.status !== 200) {
    throw new Error(`PATCH /api/news/${id}: ${response.status} ${await response.text()}`)
  }
  return (await response.json()) as NewsItem
}

/** Whether a post's page would show: the API answers it as live. */
export async function isLive(origin: string, id: string): Promise<boolean> {
  const response = await fetch(`${origin}/api/news/${encodeURIComponent(id)}`)
  await response.body?.cancel()
  return response.status === 200
}

/**
 * A post's whole history through the public API, page by page, newest first: follows each
 * `Link: <…>; rel="next"` as any client would, and counts the pages.
 */
export async function historyThroughApi(
  origin: string,
  id: string,
): Promise<{ readonly versions: NewsRevision[]; readonly pages: number }> {
  const versions: NewsRevision[] = []
  let next: string | undefined = `/api/news/${encodeURIComponent(id)}/revisions`
  let pages = 0
  while (next !== undefined && pages < 100) {
    const response: Response = await fetch(new URL(next, origin))
    if (response.status !== 200) {
      throw new Error(`GET ${next}: ${response.status} ${await response.text()}`)
    }
    versions.push(...((await response.json()) as NewsRevision[]))
    next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1]
    pages += 1
  }
  return { versions, pages }
}
