import type { NewsItem } from '@/domain/news-item.entity'
import { NewsStore } from '@/ui/store/news-store.provider'
import { liveStatusOf, type LiveStatus } from '@/ui/store/live-updates.logic'
import { useHydrated } from '@/ui/shared/use-hydrated'

/**
 * Whether `item`, as a screen shows it, is still the post's newest version (see liveStatusOf).
 * The visitor's own change in flight is no news: `ownChange` (a delete being sent), or an edit
 * the news store is saving. The article and the edit form use it; it loads with them.
 */
export function useLiveStatus(item: NewsItem | null, ownChange = false): LiveStatus {
  // A screen whose code arrives late hydrates after the stream has opened: until it has, it
  // shows what the server rendered, or React would find the HTML changed under it.
  const hydrated = useHydrated()
  const status = NewsStore.useSelector(({ context }) =>
    item === null
      ? 'current'
      : liveStatusOf(
          context.latest[item._id],
          item,
          ownChange || context.pending.some((edit) => edit.id === item._id),
        ),
  )
  return hydrated ? status : 'current'
}
