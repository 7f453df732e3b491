import { Link } from '@/ui/shared/links'
import type { TrashedNewsItem } from '@/domain/news-item.entity'
import { TRASH_MESSAGES } from '@/domain/rules/trash.messages'
import { formatDayAndTime } from '@/ui/shared/dates'
import { AddressNotice } from '@/ui/shared/not-available.page'
import { paths } from '@/ui/shared/paths'
import { useHydrated } from '@/ui/shared/use-hydrated'

export interface InTrashProps {
  readonly trashed: TrashedNewsItem
  readonly restoring: boolean
  readonly onRestore: () => void
}

/**
 * A post's address while the post is in the trash: what became of it, a link to it in Recently
 * deleted and, once the app runs, Restore, which brings it back here. The server sends the same
 * page, with 410.
 */
export function InTrash({ trashed, restoring, onRestore }: InTrashProps) {
  const hydrated = useHydrated()
  return (
    <AddressNotice name="in-trash" heading={TRASH_MESSAGES.heading}>
      <p>
        “<bdi>{trashed.title}</bdi>” {TRASH_MESSAGES.whereItIs}
      </p>
      <p className="in-trash-meta">
        By <bdi>{trashed.author}</bdi> · deleted{' '}
        <time dateTime={trashed.deletedAt}>{formatDayAndTime(trashed.deletedAt)}</time>
      </p>
      <div className="in-trash-actions">
        <Link className="button" to={`${paths.trash()}#trash-${trashed._id}-title`}>
          {TRASH_MESSAGES.link}
        </Link>
        {hydrated && (
          // Not `disabled`: a disabled button drops the keyboard focus while the restore runs.
          <button
            type="button"
            className="button button-primary"
            onClick={restoring ? undefined : onRestore}
            aria-busy={restoring}
            aria-disabled={restoring}
          >
            {restoring ? TRASH_MESSAGES.restoring : TRASH_MESSAGES.restore}
          </button>
        )}
      </div>
    </AddressNotice>
  )
}
