import { Link } from 'react-router-dom'
import type { NewsItem } from '@/domain/news-item.entity'
import { excerpt } from '@/domain/rules/excerpt'
import { paths } from '@/ui/shared/paths'
import { CARD_IMAGE } from '@/ui/shared/images'
import { RemoteImage } from '@/ui/shared/remote-image'
import type { CardHighlight } from '@/ui/shared/highlighted-text'

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
}

export function NewsCard({ item, eager, highlight }: NewsCardProps) {
  const headingId = `news-${item._id}-title`
  return (
    <article className="news-card" aria-labelledby={headingId}>
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
        <Link className="button" to={paths.article(item._id)}>
          Read More<span className="visually-hidden">: {item.title}</span>
        </Link>
      </div>
    </article>
  )
}
