import { editorName } from '@/domain/editor'
import { HIDDEN_REVISION_TEXT } from '@/domain/moderation.entity'
import { useParams } from 'react-router-dom'
import type { NewsRevision } from '@/domain/news-revision.entity'
import type { RevisionPage } from '@/domain/ports/news-repository.port'
import { usePageData } from '@/ui/shared/app-context'
import { NotAvailablePage } from '@/ui/shared/not-available.page'
import { useHydrated } from '@/ui/shared/use-hydrated'
import { provideHistory } from '@/ui/features/history/history.provide'
import { versionDiff, type DiffPart } from '@/ui/features/history/revision-diff'
import { usePagedMachine } from '@/ui/shared/paged-screen'
import { Link } from '@/ui/shared/links'
import { LoadFailed } from '@/ui/shared/load-failed'
import { paths } from '@/ui/shared/paths'
import { versionId } from '@/ui/shared/history-version'
import { usePageTitle } from '@/ui/shared/use-page-title'
import { LoadMore, LoadMoreFailed, NextPageLink, usePageCursor } from '@/ui/shared/load-more'
import { formatDayAndTime } from '@/ui/shared/dates'

export function HistoryPage() {
  const { id = '' } = useParams()
  const cursor = usePageCursor()
  return <HistoryScreen key={`${id}\n${cursor ?? ''}`} id={id} cursor={cursor} />
}

function HistoryScreen({ id, cursor }: { readonly id: string; readonly cursor?: string }) {
  // The page the server rendered (the newest versions, or the page `?cursor=` names); null
  // when there is no such post (a 404 page). Without it, the newest versions load.
  const rendered = usePageData((pageData) => pageData.history(id, cursor))
  return rendered === null ? <NotAvailablePage /> : <History id={id} rendered={rendered} />
}

function History({ id, rendered }: { readonly id: string; readonly rendered?: RevisionPage }) {
  const [state, send] = usePagedMachine(
    provideHistory,
    rendered === undefined
      ? { input: { id } }
      : { rendered: { id, revisions: rendered.items, next: rendered.next, restoring: undefined } },
  )
  const hydrated = useHydrated()
  const { revisions, next, restoring } = state.context
  const [current] = revisions
  const loadingMore = state.matches('loadingMore')
  const settled = state.matches('ready') || state.matches('loadMoreFailed')
  usePageTitle(current === undefined ? 'History' : `History of ${current.title}`)

  if (state.matches('failed')) {
    return (
      <section className="history" aria-labelledby="history-heading">
        <h1 id="history-heading" tabIndex={-1}>
          History
        </h1>
        <LoadFailed what="The history" onRetry={() => send({ type: 'history.retry' })} />
      </section>
    )
  }
  if (current === undefined) {
    return state.matches('loading') ? (
      <p role="status" className="visually-hidden">
        Loading the history…
      </p>
    ) : null
  }
  const inTrash = current.action === 'delete'
  return (
    <section className="history" aria-labelledby="history-heading" aria-busy={state.hasTag('busy')}>
      <h1 id="history-heading" tabIndex={-1}>
        History of “<bdi>{current.title}</bdi>”
      </h1>
      {inTrash ? (
        <p className="history-note">
          This post is in the trash.{' '}
          <Link to={paths.trash()}>Restore it from Recently deleted</Link> before you restore an
          older version.
        </p>
      ) : (
        <p className="history-note">
          <Link to={paths.article(id)}>Back to the article</Link>
        </p>
      )}
      <ol className="history-list" aria-label="Versions, newest first">
        {revisions.map((revision, index) => (
          <Version
            key={revision.revision}
            postId={id}
            revision={revision}
            previous={revisions[index + 1]}
            // The version before the oldest one shown comes with the next page.
            previousPending={index === revisions.length - 1 && next !== undefined}
            current={index === 0}
            busy={restoring === revision.revision}
            // A server-rendered page's Restore works once the app runs.
            waiting={!hydrated || (restoring !== undefined && restoring !== revision.revision)}
            onRestore={() => send({ type: 'history.restore', revision: revision.revision })}
          />
        ))}
      </ol>
      {state.matches('loadMoreFailed') && <LoadMoreFailed what="Older versions" />}
      {!hydrated && next !== undefined && <NextPageLink href={paths.history(id, next)} />}
      {hydrated && (next !== undefined || loadingMore) && (
        <LoadMore
          loading={loadingMore}
          ready={settled}
          onLoadMore={() => send({ type: 'history.loadMore' })}
        />
      )}
      <p className="visually-hidden" role="status">
        {state.matches('loading') || loadingMore ? 'Loading the history…' : ''}
      </p>
    </section>
  )
}

interface VersionProps {
  readonly postId: string
  readonly revision: NewsRevision
  /** The version before this one; none for the first, or while it is not loaded yet. */
  readonly previous: NewsRevision | undefined
  /** Whether the version before this one is on a page not loaded yet. */
  readonly previousPending: boolean
  readonly current: boolean
  readonly busy: boolean
  readonly waiting: boolean
  readonly onRestore: () => void
}

function Version(props: VersionProps) {
  const { postId, revision, previous, previousPending, current, busy, waiting, onRestore } = props
  const headingId = versionId(postId, revision.revision)
  // A version the operator hid has no text to show, nor to compare the next one with.
  const hidden = revision.hidden === true
  const { changed, unchanged } = hidden
    ? { changed: [], unchanged: [] }
    : versionDiff(revision, previous?.hidden === true ? undefined : previous)
  return (
    <li className="history-version">
      <article aria-labelledby={headingId}>
        <h2 className="history-version-title" id={headingId}>
          Version {revision.revision}: {actionLabel(revision)}
          {current && (
            <>
              {' '}
              <span className="history-current">(current)</span>
            </>
          )}
        </h2>
        <p className="history-meta">
          <time dateTime={revision.at}>{formatDayAndTime(revision.at)}</time> · by{' '}
          <bdi>{editorName(revision.editor)}</bdi>
        </p>
        {hidden && (
          <p className="history-unchanged">
            Its title, body and author were {HIDDEN_REVISION_TEXT}.
          </p>
        )}
        {previousPending && !hidden && (
          <p className="history-unchanged">
            Load more to see what this version changed; until then its whole text shows.
          </p>
        )}
        {changed.length > 0 && (
          <dl className="history-fields">
            {changed.map(({ field, label, parts }) => (
              <div key={field} className="history-field">
                <dt>{label}</dt>
                <dd className={field === 'body' ? 'history-body' : undefined} dir="auto">
                  <DiffText parts={parts} />
                </dd>
              </div>
            ))}
          </dl>
        )}
        {unchanged.length > 0 && (
          <p className="history-unchanged">
            {changed.length === 0
              ? 'The text did not change.'
              : `Unchanged: ${unchanged.join(', ').toLowerCase()}.`}
          </p>
        )}
        {!current && !hidden && (
          // Not `disabled`: a disabled button drops the keyboard focus while the restore runs.
          <button
            type="button"
            className="button"
            onClick={onRestore}
            aria-describedby={headingId}
            aria-busy={busy}
            aria-disabled={busy || waiting}
          >
            {busy ? 'Restoring…' : 'Restore this version'}
          </button>
        )}
      </article>
    </li>
  )
}

/** Posts are text: the diff marks words with <ins> and <del>, and says so to screen readers. */
function DiffText({ parts }: { readonly parts: readonly DiffPart[] }) {
  return parts.map((part, index) => {
    if (part.kind === 'added') {
      return (
        <span key={index}>
          <span className="visually-hidden">added: </span>
          <ins>{part.text}</ins>
        </span>
      )
    }
    if (part.kind === 'removed') {
      return (
        <span key={index}>
          <span className="visually-hidden">removed: </span>
          <del>{part.text}</del>
        </span>
      )
    }
    return <span key={index}>{part.text}</span>
  })
}

function actionLabel({ action, restoredFrom }: NewsRevision): string {
  switch (action) {
    case 'create':
      return 'Created'
    case 'edit':
      return 'Edited'
    case 'delete':
      return 'Deleted'
    case 'restore':
      return restoredFrom === undefined ? 'Restored' : `Restored from version ${restoredFrom}`
  }
}
