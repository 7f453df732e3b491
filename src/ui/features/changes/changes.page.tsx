import { useEffect, useRef, useState, type Ref } from 'react'
import { useSearchParams } from 'react-router-dom'
import { Link } from '@/ui/shared/links'
import { editorName } from '@/domain/editor'
import type { NewsChangeKind, RecentChange } from '@/domain/news-change.entity'
import { HIDDEN_REVISION_TEXT } from '@/domain/moderation.entity'
import type { PageData } from '@/application/page-data'
import type { ChangePage } from '@/domain/ports/news-repository.port'
import { usePageData } from '@/ui/shared/app-context'
import { formatDayAndTime } from '@/ui/shared/dates'
import { usePagedMachine } from '@/ui/shared/paged-screen'
import { LoadFailed } from '@/ui/shared/load-failed'
import { LoadMore, LoadMoreFailed, NextPageLink, usePageCursor } from '@/ui/shared/load-more'
import { EDITOR_FIELD, paths } from '@/ui/shared/paths'
import { versionPath } from '@/ui/shared/history-version'
import { useHydrated } from '@/ui/shared/use-hydrated'
import { usePageTitle } from '@/ui/shared/use-page-title'
import { canUndo } from '@/ui/features/changes/changes.machine'
import { CHANGES_TITLE } from '@/ui/features/changes/changes.texts'
import { provideChanges } from '@/ui/features/changes/changes.provide'
import { useHeardChanges } from '@/ui/features/changes/use-heard-changes'
import { useReloadOnReset } from '@/ui/store/live-updates.hooks'

/** The recent changes across the site, newest first, or one editor's: the patrol's page. */
export function ChangesPage() {
  // Another editor or another page (`?editor=`, `?cursor=`) is another list: the screen starts again.
  const cursor = usePageCursor()
  const [params] = useSearchParams()
  const editor = params.get(EDITOR_FIELD) ?? undefined
  return <ChangesScreen key={`${editor ?? ''}\n${cursor ?? ''}`} editor={editor} cursor={cursor} />
}

interface ScreenProps {
  readonly editor: string | undefined
  readonly cursor: string | undefined
}

function ChangesScreen({ editor, cursor }: ScreenProps) {
  usePageTitle(CHANGES_TITLE)
  const rendered = usePageData((pageData) => renderedPage(pageData.held(), editor, cursor))
  const [state, send] = usePagedMachine(
    provideChanges,
    rendered === undefined
      ? { input: { editor, cursor } }
      : {
          value: rendered === null ? 'noSuchEditor' : 'ready',
          rendered: {
            editor,
            start: cursor,
            items: rendered?.items ?? [],
            next: rendered?.next,
            undoing: undefined,
            arrived: 0,
            heardAgain: false,
          },
        },
  )
  useHeardChanges((change) => send({ type: 'changes.heard', change }))
  useReloadOnReset(() => send({ type: 'changes.reload' }))
  const hydrated = useHydrated()
  const { items, next, undoing, arrived } = state.context
  const loading = state.matches('loading')
  const loadingMore = state.matches('loadingMore')
  const settled = !loading && !loadingMore && !state.matches('failed')
  const firstNew = useFocusAfterLoadMore(loadingMore)
  const heading = useFocusAfterUndo(undoing, items)

  return (
    <section className="changes" aria-labelledby="changes-heading" aria-busy={state.hasTag('busy')}>
      <h1 id="changes-heading" tabIndex={-1} ref={heading}>
        {CHANGES_TITLE}
      </h1>
      {state.matches('noSuchEditor') ? (
        <p className="changes-about">
          No editor is called “<bdi>{editor}</bdi>”.{' '}
          <Link to={paths.changes()}>See every change</Link>.
        </p>
      ) : (
        <p className="changes-about">
          {editor === undefined ? (
            'Every change made to the site in the last 30 days, newest first. New ones appear as they are made.'
          ) : (
            <>
              Only the changes by <bdi>{editorName(editor)}</bdi>.{' '}
              <Link to={paths.changes()}>See every change</Link>.
            </>
          )}
        </p>
      )}
      {state.matches('failed') && (
        <LoadFailed what="The recent changes" onRetry={() => send({ type: 'changes.retry' })} />
      )}
      {settled && !state.matches('noSuchEditor') && items.length === 0 && next === undefined && (
        <div className="empty-state">
          <p>No changes yet.</p>
        </div>
      )}
      {items.length > 0 && (
        // A region of its own, which a keyboard can scroll when the table is wider than the screen.
        <div
          className="changes-scroll"
          role="region"
          aria-labelledby="changes-heading"
          tabIndex={0}
        >
          <table className="changes-table">
            <caption className="visually-hidden">
              {editor === undefined ? 'Recent changes' : `Changes by ${editorName(editor)}`}, newest
              first
            </caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Change</th>
                <th scope="col">Post</th>
                <th scope="col">By</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((change, index) => (
                <ChangeRow
                  key={change.seq}
                  change={change}
                  rowRef={index === firstNew.index ? firstNew.ref : undefined}
                  undo={
                    canUndo(items, change)
                      ? {
                          busy: undoing === change.seq,
                          // A server-rendered page's Undo works once the app runs.
                          waiting: !hydrated || (undoing !== undefined && undoing !== change.seq),
                          onUndo: () => send({ type: 'changes.undo', seq: change.seq }),
                        }
                      : undefined
                  }
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {state.matches('loadMoreFailed') && <LoadMoreFailed what="Older changes" />}
      {!hydrated && next !== undefined && <NextPageLink href={paths.changes(editor, next)} />}
      {hydrated && (next !== undefined || loadingMore) && !loading && !state.matches('failed') && (
        <LoadMore
          loading={loadingMore}
          ready={state.matches('ready') || state.matches('loadMoreFailed')}
          onLoadMore={() => {
            firstNew.from(items.length)
            send({ type: 'changes.loadMore' })
          }}
        />
      )}
      <p className="visually-hidden" role="status">
        {loading || loadingMore ? 'Loading the changes…' : ''}
      </p>
      <p className="visually-hidden" aria-live="polite">
        {arrived > 0
          ? `${arrived === 1 ? '1 new change' : `${arrived} new changes`} at the top`
          : ''}
      </p>
    </section>
  )
}

/**
 * The page of changes the server rendered this screen with: for this editor and this page only
 * (null for a name no editor can have).
 */
function renderedPage(
  data: PageData,
  editor: string | undefined,
  cursor: string | undefined,
): ChangePage | null | undefined {
  const { changes } = data
  return changes !== undefined && changes.editor === editor && data.cursor === cursor
    ? changes.page
    : undefined
}

const KIND_LABELS: Readonly<Record<NewsChangeKind, string>> = {
  created: 'Created',
  edited: 'Edited',
  deleted: 'Deleted',
  restored: 'Restored',
}

interface RowProps {
  readonly change: RecentChange
  readonly rowRef: Ref<HTMLTableCellElement> | undefined
  readonly undo:
    { readonly busy: boolean; readonly waiting: boolean; readonly onUndo: () => void } | undefined
}

function ChangeRow({ change, rowRef, undo }: RowProps) {
  const title = change.hidden === true ? HIDDEN_REVISION_TEXT : change.title
  const what = `version ${change.revision} of ${title}`
  return (
    <tr className="changes-row">
      <th scope="row" ref={rowRef} tabIndex={-1}>
        <time dateTime={change.at}>{formatDayAndTime(change.at)}</time>
      </th>
      <td>{KIND_LABELS[change.kind]}</td>
      <td>
        <Link
          to={paths.article(change.id)}
          dir="auto"
          className={change.hidden ? 'changes-hidden' : undefined}
        >
          {title}
        </Link>
      </td>
      <td>
        <Link to={paths.changes(change.editor)}>{editorName(change.editor)}</Link>
      </td>
      <td className="changes-actions">
        <Link to={versionPath(change.id, change.revision)}>
          Diff <span className="visually-hidden">of {what}</span>
        </Link>
        {undo !== undefined && (
          // Not `disabled`: a disabled button drops the keyboard focus while the undo runs.
          <button
            type="button"
            className="button"
            onClick={undo.onUndo}
            aria-busy={undo.busy}
            aria-disabled={undo.busy || undo.waiting}
          >
            {undo.busy ? 'Undoing…' : 'Undo this change'}{' '}
            <span className="visually-hidden">
              ({KIND_LABELS[change.kind].toLowerCase()} {what})
            </span>
          </button>
        )}
      </td>
    </tr>
  )
}

/**
 * An undone change is no longer the newest of its post once the list shows the undo on top, and
 * its button goes: the focus, left on nothing, goes to the heading, from where the undo is the
 * first row.
 */
function useFocusAfterUndo(undoing: number | undefined, items: readonly RecentChange[]) {
  const heading = useRef<HTMLHeadingElement>(null)
  const undid = useRef(false)
  const last = useRef<number | undefined>(undefined)
  useEffect(() => {
    if (last.current !== undefined && undoing === undefined) undid.current = true
    last.current = undoing
  }, [undoing])
  useEffect(() => {
    if (!undid.current) return
    const focused = document.activeElement
    if (focused === null || focused === document.body) {
      undid.current = false
      heading.current?.focus()
    }
  }, [items])
  return heading
}

/**
 * 'Load more' keeps the focus while the page loads; when it has loaded, the focus moves to the
 * first older change, so that a keyboard or screen-reader user reads on from there (the button
 * itself is gone after the last page). `from` is called with the count shown when it is pressed.
 */
function useFocusAfterLoadMore(loadingMore: boolean) {
  const ref = useRef<HTMLTableCellElement>(null)
  const [index, setIndex] = useState(-1)
  const waiting = useRef(false)
  useEffect(() => {
    if (loadingMore) {
      waiting.current = true
    } else if (waiting.current) {
      waiting.current = false
      ref.current?.focus()
    }
  }, [loadingMore])
  return { ref, index, from: setIndex }
}
