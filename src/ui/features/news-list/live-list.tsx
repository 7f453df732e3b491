import type { ReactNode } from 'react'
import { DELETED_ELSEWHERE } from '@/ui/store/live-updates.hooks'

/**
 * 'N new posts': posts created or restored elsewhere wait behind this button. It floats over
 * the top of the list (it takes no room), so its coming moves nothing; a polite live region
 * announces it.
 */
export function NewPostsButton({
  count,
  onShow,
}: {
  readonly count: number
  readonly onShow: () => void
}) {
  return (
    <div className="new-posts" aria-live="polite">
      {count > 0 && (
        <button type="button" className="button button-primary new-posts-button" onClick={onShow}>
          {count === 1 ? '1 new post' : `${count} new posts`}
        </button>
      )}
    </div>
  )
}

/**
 * One card's place in the grid. A post deleted elsewhere keeps its place and size, marked
 * 'This post was deleted.' over the card, which can no longer be used, so that nothing jumps.
 */
export function CardSlot({
  id,
  title,
  deleted,
  children,
}: {
  readonly id: string
  readonly title: string
  readonly deleted: boolean
  readonly children: ReactNode
}) {
  return (
    <div className="news-card-slot" data-news-id={id}>
      {deleted && (
        <p className="news-card-deleted">
          {DELETED_ELSEWHERE}
          <span className="visually-hidden"> {title}</span>
        </p>
      )}
      <div className="news-card-frame" inert={deleted}>
        {children}
      </div>
    </div>
  )
}
