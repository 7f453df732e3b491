import { useEffect } from 'react'

/** Names the page in the browser's tab and history, for screen readers too. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} | NewsWire` : 'NewsWire'
  }, [title])
}
