import { matchPath } from 'react-router-dom'
import type { NewsItem } from '@/domain/news-item.entity'
import { excerpt } from '@/domain/rules/excerpt'
import { parseSearchQuery } from '@/domain/rules/search-query.rules'
import { articleImage } from '@/ui/shared/images'
import type { PageData, PageNeed } from '@/application/page-data'
import { isInTrash, isMissing } from '@/ui/app/page-routes'
import { TRASH_MESSAGES } from '@/domain/rules/trash.messages'
import { pageTitle, PAGE_TITLES, SITE } from '@/ui/shared/page-titles'
import { paths, routes } from '@/ui/shared/paths'
import { CHANGES_TITLE } from '@/ui/features/changes/changes.texts'

export interface PageHeadProps {
  /** The site's absolute origin: PUBLIC_URL's, or the request's. */
  readonly origin: string
  /** The page's path, as requested. */
  readonly pathname: string
  readonly need: PageNeed
  readonly data: PageData
}

/** What a link to a page previews as, and what a search engine reads first. */
interface Head {
  readonly title: string
  readonly description: string
  /** The page's own path, for the canonical link; undefined for pages search should skip. */
  readonly canonical: string | undefined
  readonly article?: NewsItem
  /** Written and edited on the site: no search engine needs them. */
  readonly noindex: boolean
}

function headOf({ pathname, need, data }: PageHeadProps): Head {
  if (isMissing(need, data)) {
    return {
      title: pageTitle(PAGE_TITLES.notAvailable),
      description: SITE.description,
      canonical: undefined,
      noindex: true,
    }
  }
  if (isInTrash(need, data)) {
    return {
      title: pageTitle(TRASH_MESSAGES.pageTitle),
      description: SITE.description,
      canonical: undefined,
      noindex: true,
    }
  }
  if (need.kind === 'home') {
    return {
      title: pageTitle(PAGE_TITLES.home),
      description: SITE.description,
      // Each page of the list is its own: crawlers reach the older posts through them.
      canonical: paths.home(need.cursor),
      noindex: false,
    }
  }
  if (need.kind === 'search') {
    // Results pages are as many as the queries: none of them is for search engines.
    const query = parseSearchQuery(need.q)
    return {
      title: pageTitle(PAGE_TITLES.search(query.ok ? query.value.text : '')),
      description: SITE.description,
      canonical: undefined,
      noindex: true,
    }
  }
  const item = need.kind === 'item' ? data.item?.item : undefined
  if (item !== undefined && item !== null && pathname === paths.article(item._id)) {
    return {
      title: pageTitle(item.title),
      description: excerpt(item.body),
      canonical: paths.article(item._id),
      article: item,
      noindex: false,
    }
  }
  const screen = screenTitleAt(pathname, item ?? undefined)
  return {
    title: pageTitle(screen),
    description: SITE.description,
    canonical: pathname === paths.contact() ? pathname : undefined,
    noindex: pathname !== paths.contact(),
  }
}

/** The title of the screen at `pathname`, given the post it shows when the server knows it. */
function screenTitleAt(pathname: string, item?: NewsItem): string {
  const at = (pattern: string) => matchPath(`/${pattern}`, pathname) !== null
  if (at(routes.addNews)) return PAGE_TITLES.addNews
  if (at(routes.editNews)) return PAGE_TITLES.editNews
  if (at(routes.history)) return PAGE_TITLES.history(item)
  if (at(routes.trash)) return PAGE_TITLES.trash
  if (at(routes.changes)) return CHANGES_TITLE
  if (at(routes.contact)) return PAGE_TITLES.contact
  if (at(routes.article)) return item?.title ?? PAGE_TITLES.article
  return pathname === '/' ? PAGE_TITLES.home : PAGE_TITLES.notAvailable
}

/** JSON-LD as a `<script>` body that no post can end early (see embedPageData). */
function jsonLd(value: unknown): { __html: string } {
  return {
    __html: JSON.stringify(value).replace(
      /[<>&]/g,
      (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ),
  }
}

function structuredData(head: Head, origin: string): unknown {
  const { article } = head
  if (article === undefined) {
    return {
      '@context': 'https://schema.org',
      '@type': 'WebSite',
      name: SITE.name,
      description: SITE.description,
      url: `${origin}/`,
    }
  }
  return {
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: article.title,
    description: head.description,
    author: [{ '@type': 'Person', name: article.author }],
    datePublished: article.createdAt,
    dateModified: article.updatedAt ?? article.createdAt,
    image: [articleImage(article._id).src],
    mainEntityOfPage: `${origin}${paths.article(article._id)}`,
    publisher: { '@type': 'Organization', name: SITE.name },
  }
}

/**
 * The head of a server-rendered page: title, description, canonical link, Open Graph and
 * Twitter card tags for link previews, JSON-LD for search engines, and the feed's link.
 * React writes it, so every value from a post is escaped as HTML text or an attribute.
 */
export function PageHead(props: PageHeadProps) {
  const { origin } = props
  const head = headOf(props)
  const url = head.canonical === undefined ? undefined : `${origin}${head.canonical}`
  const image =
    head.article === undefined ? `${origin}/icon-512.png` : articleImage(head.article._id).src
  return (
    <>
      <title>{head.title}</title>
      <meta name="description" content={head.description} />
      {head.noindex && <meta name="robots" content="noindex" />}
      {url !== undefined && <link rel="canonical" href={url} />}
      <link
        rel="alternate"
        type="application/rss+xml"
        title={SITE.name}
        href={`${origin}/feed.xml`}
      />
      <meta property="og:site_name" content={SITE.name} />
      <meta property="og:type" content={head.article === undefined ? 'website' : 'article'} />
      <meta property="og:title" content={head.article?.title ?? head.title} />
      <meta property="og:description" content={head.description} />
      <meta property="og:image" content={image} />
      {url !== undefined && <meta property="og:url" content={url} />}
      {head.article !== undefined && (
        <>
          <meta property="article:published_time" content={head.article.createdAt} />
          <meta
            property="article:modified_time"
            content={head.article.updatedAt ?? head.article.createdAt}
          />
          <meta property="article:author" content={head.article.author} />
        </>
      )}
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={head.article?.title ?? head.title} />
      <meta name="twitter:description" content={head.description} />
      <meta name="twitter:image" content={image} />
      {!head.noindex && (
        <script
          type="application/ld+json"
          dangerouslySetInnerHTML={jsonLd(structuredData(head, origin))}
        />
      )}
    </>
  )
}
