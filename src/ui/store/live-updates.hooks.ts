import { useEffect, useRef } from 'react'
import { NewsStore } from '@/ui/store/news-store.provider'

/**
 * What the list, the article and the edit form all say of a post deleted elsewhere. The texts
 * only one screen shows live beside it (live-list.tsx, article.page.tsx, news-form.page.tsx).
 */
export const DELETED_ELSEWHERE = 'This post was deleted.'

/**
 * Calls `reload` when the news store says that what the screens show must be loaded again:
 * the live stream could not tell what it missed.
 */
export function useReloadOnReset(reload: () => void): void {
  const store = NewsStore.useActorRef()
  const latest = useRef(reload)
  useEffect(() => {
    latest.current = reload
  })
  useEffect(() => {
    const subscription = store.on('news.reload', () => latest.current())
    return () => subscription.unsubscribe()
  }, [store])
}
