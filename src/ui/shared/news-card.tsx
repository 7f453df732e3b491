import { useLayoutEffect, useRef } from 'react'
import { Link } from '@/ui/shared/links'
import type { NewsItem } from '@/domain/news-item.entity'
import { excerpt } from '@/domain/rules/excerpt'
import { paths } from '@/ui/shared/paths'
import { CARD_IMAGE } from '@/ui/shared/images'
import { RemoteImage } from '@/ui/shared/remote-image'
import type { CardHighlight } from '@/ui/shared/highlighted-text'

/** The id of a post's card, which the feed's aria-owns lists. */
export function cardId(postId: string): string {
  return `news-${postId}-card`
}

export interface NewsCardProps {
  readonly item: NewsItem
  /** Cards below the fold load their image lazily. */
  readonly eager: boolean
  /**
   * On the search page: the words the search matched, marked in the author, title and excerpt,
   * and the excerpt taken where they are. Handed in, so that the list's cards (on '/') load
   * none of its code.
   */
  readonly highlight?: CardHighlight
  /**
   * In the news grid (a WAI-ARIA feed): the card's place in the list, the list's length (-1
   * while more pages may load), and, once the app runs, whether the card is the grid's one Tab
   * stop. The grid's keys move between cards, so nothing inside a card is a Tab stop then.
   */
  readonly feed?: CardInFeed
}

export interface CardInFeed {
  readonly position: number
  readonly size: number
  /** Undefined until the app runs: the page then works without it, Read More a Tab stop. */
  readonly tabbable: boolean | undefined
  /** Whether the card, mounting as the Tab stop, takes back the focus its old element lost. */
  readonly focusWasLost?: () => boolean
}

export function NewsCard({ item, eager, highlight, feed }: NewsCardProps) {
  const headingId = `news-${item._id}-title`
  const roving = feed?.tabbable
  const card = useRef<HTMLElement>(null)
  const focusWasLost = feed?.focusWasLost
  useLayoutEffect(() => {
    if (roving === true && focusWasLost?.() === true) card.current?.focus({ preventScroll: true })
  }, [roving, focusWasLost])
  return (
    <article
      ref={card}
      className="news-card"
      aria-labelledby={headingId}
      {...(feed !== undefined && {
        id: cardId(item._id),
        'data-post-id': item._id,
        'aria-posinset': feed.position,
        'aria-setsize': feed.size,
        tabIndex: roving === undefined ? undefined : roving ? 0 : -1,
      })}
    >
      <RemoteImage
        className="news-card-image"
        {...CARD_IMAGE}
        loading={eager ? 'eager' : 'lazy'}
        alt=""
      />
      <div className="news-card-content">
        {/* Names and titles may run right to left: each keeps its own direction. */}
        <p className="news-card-author" dir="auto">
          {highlight === undefined ? item.author : highlight.text(item.author)}
        </p>
        <h2 className="news-card-title" id={headingId} dir="auto">
          {highlight === undefined ? item.title : highlight.text(item.title)}
        </h2>
        <p className="news-card-excerpt" dir="auto">
          {highlight === undefined ? excerpt(item.body) : highlight.excerpt(item.body)}
        </p>
        <Link
          className="button"
          to={paths.article(item._id)}
          tabIndex={roving === undefined ? undefined : -1}
        >
          Read More<span className="visually-hidden">: {item.title}</span>
        </Link>
      </div>
    </article>
  )
}
