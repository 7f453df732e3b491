import { useEffect, useRef } from 'react'
import { Link } from '@/ui/shared/links'
import type { TrashedNewsItem } from '@/domain/news-item.entity'
import { usePageData } from '@/ui/shared/app-context'
import { provideTrash } from '@/ui/features/trash/trash.provide'
import { usePagedMachine } from '@/ui/shared/paged-screen'
import { LoadFailed } from '@/ui/shared/load-failed'
import { paths } from '@/ui/shared/paths'
import { usePageTitle } from '@/ui/shared/use-page-title'
import { LoadMore, LoadMoreFailed, NextPageLink, usePageCursor } from '@/ui/shared/load-more'
import { useHydrated } from '@/ui/shared/use-hydrated'
import { formatDayAndTime } from '@/ui/shared/dates'

/** Recently deleted: the trash, newest deletion first, each post with a Restore button. */
export function TrashPage() {
  // Another page of the trash (`?cursor=`) is another list: the screen starts again.
  const cursor = usePageCursor()
  return <TrashScreen key={cursor ?? ''} cursor={cursor} />
}

function TrashScreen({ cursor }: { readonly cursor: string | undefined }) {
  usePageTitle('Recently deleted')
  // The page the server rendered (the first, or the one `?cursor=` names): the trash starts
  // ready with it.
  const rendered = usePageData((pageData) => pageData.trash(cursor))
  const [state, send] = usePagedMachine(
    provideTrash,
    rendered === undefined
      ? { input: { cursor } }
      : {
          rendered: {
            start: cursor,
            items: rendered.items,
            next: rendered.next,
            restoring: undefined,
            restored: undefined,
          },
        },
  )
  const hydrated = useHydrated()
  const { items, next, restoring, restored } = state.context
  const loading = state.matches('loading')
  const loadingMore = state.matches('loadingMore')
  const settled = state.matches('ready') || state.matches('loadMoreFailed')
  const focus = useFocusAfterRestore(restoring, items, restored?.id)

  return (
    <section className="trash" aria-labelledby="trash-heading" aria-busy={state.hasTag('busy')}>
      <h1 id="trash-heading" ref={focus.heading} tabIndex={-1}>
        Recently deleted
      </h1>
      <p className="trash-about">
        Deleted posts wait here for a limited number of days, then they are removed for good.
        Restoring a post puts it back at its old address, with its history.
      </p>
      {restored !== undefined && (
        <p className="trash-restored" ref={focus.notice} tabIndex={-1}>
          “
          <Link to={paths.article(restored.id)} dir="auto">
            {restored.title}
          </Link>
          ” is back.
        </p>
      )}
      {state.matches('failed') && (
        <LoadFailed what="The trash" onRetry={() => send({ type: 'trash.retry' })} />
      )}
      {settled && items.length === 0 && next === undefined && (
        <div className="empty-state">
          <p>The trash is empty.</p>
        </div>
      )}
      {items.length > 0 && (
        <ul className="trash-list" aria-labelledby="trash-heading">
          {items.map((item) => (
            <TrashEntry
              key={item._id}
              item={item}
              busy={restoring === item._id}
              // A server-rendered page's Restore works once the app runs.
              waiting={!hydrated || (restoring !== undefined && restoring !== item._id)}
              onRestore={() => send({ type: 'trash.restore', id: item._id })}
            />
          ))}
        </ul>
      )}
      {state.matches('loadMoreFailed') && <LoadMoreFailed what="More deleted posts" />}
      {!hydrated && next !== undefined && <NextPageLink href={paths.trash(next)} />}
      {hydrated && (next !== undefined || loadingMore) && !loading && !state.matches('failed') && (
        <LoadMore
          loading={loadingMore}
          ready={settled}
          onLoadMore={() => send({ type: 'trash.loadMore' })}
        />
      )}
      <p className="visually-hidden" role="status">
        {loading || loadingMore ? 'Loading the trash…' : ''}
      </p>
    </section>
  )
}

interface TrashEntryProps {
  readonly item: TrashedNewsItem
  /** This post is being restored. */
  readonly busy: boolean
  /** Another post is being restored (one restore runs at a time), or the app is not running. */
  readonly waiting: boolean
  readonly onRestore: () => void
}

function TrashEntry({ item, busy, waiting, onRestore }: TrashEntryProps) {
  const titleId = `trash-${item._id}-title`
  return (
    <li className="trash-item" aria-labelledby={titleId}>
      <div className="trash-item-text">
        <h2 className="trash-item-title" id={titleId} dir="auto">
          {item.title}
        </h2>
        <p className="trash-item-meta">
          By <bdi>{item.author}</bdi> · deleted{' '}
          <time dateTime={item.deletedAt}>{formatDayAndTime(item.deletedAt)}</time>
        </p>
      </div>
      <div className="trash-item-actions">
        <Link className="button" to={paths.history(item._id)}>
          History <span className="visually-hidden">of {item.title}</span>
        </Link>
        {/* Not `disabled`: a disabled button drops the keyboard focus while the restore runs. */}
        <button
          type="button"
          className="button button-primary"
          onClick={onRestore}
          aria-busy={busy}
          aria-disabled={busy || waiting}
        >
          {busy ? 'Restoring…' : 'Restore'} <span className="visually-hidden">{item.title}</span>
        </button>
      </div>
    </li>
  )
}

/**
 * A restored post leaves the list, and with it the button that had the focus: the focus moves
 * to the note that links to the post, or to the heading when the post could not come back.
 */
function useFocusAfterRestore(
  restoring: string | undefined,
  items: readonly TrashedNewsItem[],
  restoredId: string | undefined,
) {
  const heading = useRef<HTMLHeadingElement>(null)
  const notice = useRef<HTMLParagraphElement>(null)
  const last = useRef<string | undefined>(undefined)
  useEffect(() => {
    const finished = last.current
    last.current = restoring
    if (finished === undefined || restoring !== undefined) return
    if (items.some((item) => item._id === finished)) return
    const target = restoredId === finished ? notice.current : heading.current
    target?.focus()
  }, [restoring, items, restoredId])
  return { heading, notice }
}
