import { useEffect } from 'react'
import { pageTitle } from '@/ui/shared/page-titles'

/**
 * Names the page in the browser's tab and history, for screen readers too, as the visitor moves
 * between screens. The server writes the first page's title into its head (page-head.tsx), so
 * this runs in the browser only, as an effect.
 */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = pageTitle(title)
  }, [title])
}
