import type { NewsChange } from '@/domain/news-change.entity'
import type { NewsChanges, NewsDraft, NewsItem } from '@/domain/news-item.entity'
import type { WriteCondition } from '@/domain/rules/news-history.rules'
import { type PendingEdit, type UnsavedEdit } from '@/ui/store/news-store.logic'
import { type LatestChange, type LiveFetch } from '@/ui/store/live-updates.logic'

/** A page of the list for the store: the first replaces the list, later ones extend it. */
export interface StorePageParams {
  readonly items: readonly NewsItem[]
  readonly append: boolean
}

/** What the store starts with: the list and the post the page was rendered with. */
export interface NewsStoreInput {
  readonly news?: readonly NewsItem[]
  readonly newsItem?: NewsItem | null
}

export interface NewsStoreContext {
  /** The spec's shared 'news' slice: the list, newest first. */
  readonly news: readonly NewsItem[]
  /** The spec's newsItem: the single item loaded last. */
  readonly newsItem: NewsItem | null
  /** Edits sent in order, oldest first; the first is the one in flight. */
  readonly pending: readonly PendingEdit[]
  /** How many saves have been answered; a load notes it when it is sent (its `since`). */
  readonly saves: number
  /** For each id, the value of `saves` when a save of it was last answered. */
  readonly savedAt: Readonly<Record<string, number>>
  /** The post being brought back from the trash (the delete toast's Undo), if any. */
  readonly restoring: string | null
  /**
   * Posts created or restored elsewhere, loaded and waiting behind the list's 'N new posts'
   * button, newest first: nothing moves under the reader until they ask.
   */
  readonly arrivals: readonly NewsItem[]
  /** What the live stream last said of each post the store shows (see liveStatusOf). */
  readonly latest: Readonly<Record<string, LatestChange>>
  /** Posts to load because the stream named them, oldest first; the first is loading. */
  readonly fetches: readonly LiveFetch[]
  /**
   * Edits the server refused (saved or deleted meanwhile), by post: the visitor's text waits
   * here, in memory, for the edit form's review, whatever became of the drafts in storage.
   */
  readonly unsaved: Readonly<Record<string, UnsavedEdit>>
}

export type NewsStoreEvent =
  /** A page of the list has loaded; the first page replaces the list, later ones extend it. */
  | {
      readonly type: 'get_news'
      readonly items: readonly NewsItem[]
      readonly append: boolean
      readonly since?: number
    }
  /** One item has loaded. */
  | { readonly type: 'get_news_by_id'; readonly item: NewsItem; readonly since?: number }
  /**
   * The visitor saved an edit: show it at once, then save it, on the condition that the post is
   * still the revision the form showed.
   */
  | {
      readonly type: 'news.edit'
      readonly id: string
      readonly changes: NewsChanges
      readonly condition?: WriteCondition
      /** The values of the version the visitor's text was started from. */
      readonly base?: NewsDraft
    }
  /** The edit form took back the text of a refused edit (see `unsaved`). */
  | { readonly type: 'news.unsavedTaken'; readonly id: string }
  /** An item was deleted. */
  | { readonly type: 'news.removed'; readonly id: string }
  /** Bring a deleted post back (the delete toast's Undo). */
  | { readonly type: 'news.restore'; readonly id: string }
  /**
   * The live stream told of a change, made here or elsewhere: a post shown in the list is
   * loaded again in place; a new one waits in `arrivals`; any post shown notes it in `latest`,
   * which tells the article and the forms that they show an old or deleted version.
   */
  | { readonly type: 'news.changed'; readonly change: NewsChange }
  /**
   * The stream cannot tell what was missed (it was away too long): the store emits
   * `news.reload`, on which the screens load again what they show.
   */
  | { readonly type: 'news.reset' }
  /** The reader pressed 'N new posts': the arrivals go to the top of the list. */
  | { readonly type: 'news.showArrivals' }
  /** A load found the post gone (deleted while the stream could not say so). */
  | { readonly type: 'news.gone'; readonly id: string }

/** What the store tells its listeners (`store.on(type, …)`). */
export type NewsStoreEmitted =
  | { readonly type: 'news.reload' }
  /** Every change the live stream told, for the screens that list changes themselves. */
  | { readonly type: 'news.heard'; readonly change: NewsChange }

export interface EditRequest {
  readonly id: string
  readonly changes: NewsChanges
  readonly condition?: WriteCondition
}
