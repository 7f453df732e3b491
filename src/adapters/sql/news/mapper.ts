import { NEWS_CHANGE_KINDS, type NewsChange, type RecentChange } from '@/domain/news-change.entity'
import {
  REVISION_ACTIONS,
  type NewsRevision,
  type RevisionAction,
} from '@/domain/news-revision.entity'
import type { StoredNews } from '@/domain/rules/news-history.rules'
import { toIsoInstant } from '@/adapters/sql/newswire.schema'

/* Rows of the news tables to the domain's entities, and back: the one place that knows both. */

export const NEWS_COLUMNS = [
  'id',
  'title',
  'body',
  'author',
  'created_at',
  'updated_at',
  'revision',
  'deleted_at',
] as const

export const REVISION_COLUMNS = [
  'revision',
  'title',
  'body',
  'author',
  'action',
  'at',
  'editor',
  'restored_from',
  'hidden_at',
] as const

interface ChangeRow {
  seq: number | string
  news_id: string
  kind: string
  revision: number
  at: Date | string
}

export function toChange(row: ChangeRow): NewsChange {
  const kind = NEWS_CHANGE_KINDS.find((known) => known === row.kind)
  // The table's check constraint admits nothing else.
  if (kind === undefined) throw new Error(`unknown change kind ${row.kind}`)
  return {
    seq: Number(row.seq),
    id: row.news_id,
    kind,
    revision: Number(row.revision),
    at: instantOf(row.at),
  }
}

interface RecentChangeRow extends ChangeRow {
  editor: string
  title: string
  hidden_at: Date | string | null
}

export function toRecentChange(row: RecentChangeRow): RecentChange {
  return {
    ...toChange(row),
    editor: row.editor,
    title: row.title,
    ...(row.hidden_at === null ? {} : { hidden: true }),
  }
}

function isTrue(value: boolean | number | string | undefined): boolean {
  return value === true || value === 1 || value === '1' || value === 't'
}

function toAction(value: string): RevisionAction {
  const action = REVISION_ACTIONS.find((known) => known === value)
  // The table's check constraint admits nothing else.
  if (action === undefined) throw new Error(`unknown revision action ${value}`)
  return action
}

interface NewsRow {
  id: string
  title: string
  body: string
  author: string
  created_at: Date | string
  updated_at: Date | string
  revision: number
  deleted_at: Date | string | null
  /** Selected with a post by id (queries.ts selectNews): SQLite says 0 or 1, PostgreSQL a boolean. */
  protected?: boolean | number | string
}

export function toStoredNews(row: NewsRow): StoredNews {
  return {
    _id: row.id,
    title: row.title,
    body: row.body,
    author: row.author,
    createdAt: instantOf(row.created_at),
    updatedAt: instantOf(row.updated_at),
    revision: Number(row.revision),
    deletedAt: row.deleted_at === null ? null : instantOf(row.deleted_at),
    ...(isTrue(row.protected) ? { protected: true } : {}),
  }
}

/** The form toISOString writes, in which SQLite keeps every instant the store saved. */
const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

/**
 * toIsoInstant, without parsing and printing again an instant already in its form: on a page of
 * posts read from SQLite, that round trip through Date cost a tenth of the read.
 */
function instantOf(value: Date | string): string {
  return typeof value === 'string' && ISO_INSTANT.test(value) ? value : toIsoInstant(value)
}

export function toNewsRow(item: StoredNews) {
  return {
    id: item._id,
    title: item.title,
    body: item.body,
    author: item.author,
    created_at: item.createdAt,
    updated_at: item.updatedAt,
    revision: item.revision,
    deleted_at: item.deletedAt,
  }
}

interface RevisionRow {
  revision: number
  title: string
  body: string
  author: string
  action: string
  at: Date | string
  editor: string
  restored_from: number | null
  hidden_at: Date | string | null
}

export function toRevision(row: RevisionRow): NewsRevision {
  return {
    revision: Number(row.revision),
    title: row.title,
    body: row.body,
    author: row.author,
    action: toAction(row.action),
    at: toIsoInstant(row.at),
    editor: row.editor,
    ...(row.restored_from === null ? {} : { restoredFrom: Number(row.restored_from) }),
    ...(row.hidden_at === null ? {} : { hidden: true }),
  }
}
