import { useEffect, useRef, type RefObject } from 'react'
import { useParams } from 'react-router-dom'
import { Link } from '@/ui/shared/links'
import { LoadFailed } from '@/ui/shared/load-failed'
import { usePageData, useProvidedMachine } from '@/ui/shared/app-context'
import { provideArticle } from '@/ui/features/article/article.provide'
import { useInspectedMachine } from '@/ui/shared/inspection'
import { usePageTitle } from '@/ui/shared/use-page-title'
import { articleImage } from '@/ui/shared/images'
import { paths } from '@/ui/shared/paths'
import { RemoteImage } from '@/ui/shared/remote-image'
import { useHydrated } from '@/ui/shared/use-hydrated'
import { formatDay } from '@/ui/shared/dates'
import { NotAvailablePage } from '@/ui/shared/not-available.page'
import { DELETED_ELSEWHERE, useReloadOnReset } from '@/ui/store/live-updates.hooks'
import { useLiveStatus } from '@/ui/store/live-updates.status'
import { NewsStore } from '@/ui/store/news-store.provider'
import type { TrashedNewsItem } from '@/domain/news-item.entity'
import { TRASH_MESSAGES } from '@/domain/rules/trash.messages'
import { InTrash } from '@/ui/features/article/in-trash'

export function ArticlePage() {
  const { id = '' } = useParams()
  return <ArticleScreen key={id} id={id} />
}

function ArticleScreen({ id }: { readonly id: string }) {
  // The post the server rendered this page with: null when there was none (a 404 page), or
  // when it is in the trash (a 410 page, which says so).
  const rendered = usePageData((pageData) => pageData.item(id))
  const trashed = usePageData((pageData) => pageData.trashed(id))
  if (trashed !== undefined) return <Article id={id} rendered={trashed} />
  return rendered === null ? (
    <NotAvailablePage />
  ) : (
    <Article id={id} rendered={rendered === undefined ? undefined : 'viewing'} />
  )
}

interface ArticleProps {
  readonly id: string
  /** How the server rendered the page: the post, or the post in the trash. */
  readonly rendered: 'viewing' | TrashedNewsItem | undefined
}

/** What the article says of a post the operator protected (`npm run news -- protect`). */
export const PROTECTED_NOTE =
  'Protected by the operator: only the operator can edit or delete this post.'

function Article({ id, rendered }: ArticleProps) {
  const machine = useProvidedMachine(provideArticle)
  const [state, send] = useInspectedMachine(
    machine,
    rendered === undefined
      ? { input: { id } }
      : {
          snapshot: machine.resolveState(
            rendered === 'viewing'
              ? { value: 'viewing', context: { id, revision: undefined } }
              : { value: 'inTrash', context: { id, revision: undefined, trashed: rendered } },
          ),
        },
  )
  // The store may already hold the item (after an edit, with the new values); show it at once.
  const item = NewsStore.useSelector(({ context }) =>
    context.newsItem?._id === id ? context.newsItem : null,
  )
  const hydrated = useHydrated()
  const deleting = state.matches('deleting')
  const refreshing = state.matches('refreshing')
  // Changes made elsewhere are told, never shown unasked; this page's own delete is no news.
  const status = useLiveStatus(item, deleting)
  useReloadOnReset(() => send({ type: 'article.refresh' }))
  const { heading, showNewVersion } = useShowNewVersion(refreshing, () =>
    send({ type: 'article.refresh' }),
  )
  useFocusWhenRestored(state.matches('restoring'), heading)
  usePageTitle(
    state.context.trashed === undefined ? (item?.title ?? 'Article') : TRASH_MESSAGES.pageTitle,
  )

  const { trashed } = state.context
  if (trashed !== undefined && (state.matches('inTrash') || state.matches('restoring'))) {
    return (
      <InTrash
        trashed={trashed}
        restoring={state.matches('restoring')}
        onRestore={() => send({ type: 'article.restore' })}
      />
    )
  }
  if (state.matches('failed')) {
    return (
      <>
        <h1 className="visually-hidden">Article</h1>
        <LoadFailed what="The article" onRetry={() => send({ type: 'article.retry' })} />
      </>
    )
  }
  if (item === null) {
    return state.matches('loading') ? (
      <p role="status" className="visually-hidden">
        Loading the article…
      </p>
    ) : null
  }
  const image = articleImage(item._id)
  // A post the operator protected, or one deleted elsewhere, offers no Edit or Delete.
  const changeable = status !== 'deleted' && item.protected !== true
  return (
    <article className="article" aria-labelledby="article-title">
      <div className="live-notices" aria-live="polite">
        {status === 'edited' && (
          <div className="live-notice">
            <p>This post was edited elsewhere.</p>
            <button
              type="button"
              className="button"
              onClick={showNewVersion}
              disabled={refreshing}
              aria-busy={refreshing}
            >
              Show the new version
            </button>
          </div>
        )}
        {status === 'deleted' && (
          <div className="live-notice live-notice-deleted">
            <p>{DELETED_ELSEWHERE}</p>
            <Link to={paths.trash()}>Recently deleted</Link>
          </div>
        )}
      </div>
      <h1 id="article-title" dir="auto" tabIndex={-1} ref={heading}>
        {item.title}
      </h1>
      <RemoteImage className="article-image" {...image} alt="" fetchPriority="high" />
      <p className="article-byline">
        Created By: <bdi>{item.author}</bdi> |{' '}
        <time dateTime={item.createdAt}>{formatDay(item.createdAt)}</time>
      </p>
      <div className="article-body">{item.body}</div>
      {item.protected === true && <p className="article-protected">{PROTECTED_NOTE}</p>}
      <div className="article-actions">
        {changeable && (
          <Link className="button" to={paths.editNews(item._id)}>
            Edit
          </Link>
        )}
        <Link className="button" to={paths.history(item._id)}>
          History
        </Link>
        {changeable && (
          <button
            type="button"
            className="button button-danger"
            onClick={() => send({ type: 'article.delete', revision: item.revision })}
            // A server-rendered page's button works once the app runs; until then it says so.
            disabled={deleting || !hydrated}
            aria-busy={deleting}
          >
            Delete
          </button>
        )}
      </div>
    </article>
  )
}

/**
 * 'Show the new version': loads it, then takes the reader to the top of it (the button they
 * pressed is gone). A reload after a reset moves no focus.
 */
function useShowNewVersion(refreshing: boolean, refresh: () => void) {
  const heading = useRef<HTMLHeadingElement>(null)
  const asked = useRef(false)
  useEffect(() => {
    if (refreshing || !asked.current) return
    asked.current = false
    heading.current?.focus()
  }, [refreshing])
  const showNewVersion = () => {
    asked.current = true
    refresh()
  }
  return { heading, showNewVersion }
}

/** The post is back from the trash: the reader goes on at its title (Restore is gone). */
function useFocusWhenRestored(restoring: boolean, heading: RefObject<HTMLHeadingElement | null>) {
  const was = useRef(restoring)
  useEffect(() => {
    if (was.current && !restoring) heading.current?.focus()
    was.current = restoring
  }, [restoring, heading])
}
