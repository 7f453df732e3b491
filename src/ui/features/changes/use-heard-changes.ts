import { useEffect, useRef } from 'react'
import type { NewsChange } from '@/domain/news-change.entity'
import { NewsStore } from '@/ui/store/news-store.provider'

/** Calls `heard` with every change the live stream tells the news store, while mounted. */
export function useHeardChanges(heard: (change: NewsChange) => void): void {
  const store = NewsStore.useActorRef()
  const latest = useRef(heard)
  useEffect(() => {
    latest.current = heard
  })
  useEffect(() => {
    const subscription = store.on('news.heard', ({ change }) => latest.current(change))
    return () => subscription.unsubscribe()
  }, [store])
}
