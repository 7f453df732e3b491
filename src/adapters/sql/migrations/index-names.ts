/* The names of the schema's indexes: the migrations create them, and tests EXPLAIN by them. */

/** Index of the write limit's sweep: the ends of the clients' windows. */
export const RATE_LIMIT_WINDOW_END_INDEX = 'rate_limit_window_end_idx'

/** Index of the list query: live posts, newest first, the id breaking ties. */
export const NEWS_LIST_INDEX = 'news_created_at_id_idx'
/** Index of the trash: trashed posts, newest deletion first, the id breaking ties. */
export const NEWS_TRASH_INDEX = 'news_deleted_at_id_idx'
/** Index of the revisions made since an instant, for the operator's undo. */
export const NEWS_REVISION_AT_INDEX = 'news_revision_at_idx'
/** Index of the idempotency keys by age, for the purge. */
export const IDEMPOTENCY_KEY_CREATED_AT_INDEX = 'idempotency_key_created_at_idx'
/** Unique index of the posts' publication order, search's ranking and cursor. */
export const NEWS_SEARCH_SEQ_INDEX = 'news_search_seq_idx'
/** PostgreSQL's GIN index of live posts' words. */
export const NEWS_SEARCH_VECTOR_INDEX = 'news_search_vector_idx'
/** Index of the live streams' leases by client, to count one client's. */
export const EVENT_STREAM_LEASE_CLIENT_INDEX = 'event_stream_lease_client_idx'
/** Index of the leases by holder, for a server's renewal of all of its own. */
export const EVENT_STREAM_LEASE_HOLDER_INDEX = 'event_stream_lease_holder_idx'
/** Index of the leases by expiry, for the sweep of those no server renews. */
export const EVENT_STREAM_LEASE_EXPIRES_INDEX = 'event_stream_lease_expires_at_idx'
/** Index of one editor's revisions by time, for the operator's rollback and the change list. */
export const NEWS_REVISION_EDITOR_INDEX = 'news_revision_editor_at_idx'
/** Index of the blocks by what they name, for the check of a client's writes. */
export const CLIENT_BLOCK_TARGET_INDEX = 'client_block_kind_target_idx'
/** Index of the operator log in the order it is printed. */
export const OPERATOR_ACTION_AT_INDEX = 'operator_action_at_id_idx'
/** Index of the change log by post and revision, for one editor's recent changes. */
export const NEWS_CHANGE_REVISION_INDEX = 'news_change_news_id_revision_idx'
/** Index of the change log by time, for the purge of changes older than a month. */
export const NEWS_CHANGE_AT_INDEX = 'news_change_at_idx'
