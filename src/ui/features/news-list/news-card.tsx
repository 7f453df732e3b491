import { Link } from 'react-router-dom'
import type { NewsItem } from '@/domain/news-item.entity'
import { excerpt } from '@/ui/shared/excerpt'
import { paths } from '@/ui/shared/paths'
import { CARD_IMAGE } from '@/ui/shared/images'
import { RemoteImage } from '@/ui/shared/remote-image'

export interface NewsCardProps {
  readonly item: NewsItem
  /** Cards below the fold load their image lazily. */
  readonly eager: boolean
}

export function NewsCard({ item, eager }: NewsCardProps) {
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
        <p className="news-card-author">{item.author}</p>
        <h2 className="news-card-title" id={headingId}>
          {item.title}
        </h2>
        <p className="news-card-excerpt">{excerpt(item.body)}</p>
        <Link className="button" to={paths.article(item._id)}>
          Read More<span className="visually-hidden">: {item.title}</span>
        </Link>
      </div>
    </article>
  )
}
