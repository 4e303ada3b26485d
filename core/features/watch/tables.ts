/** Table types of watches and their snapshots; the migration that creates them is migration.ts. */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../storage/schema.ts';

export interface WatchesTable {
  id: string;
  workspace_id: string;
  url: string;
  name: string;
  interval_minutes: number;
  webhook_url: string | null;
  /** 0/1: whether scheduled checks run. */
  active: number;
  /** JSON text: CSS selectors removed before the content is read. */
  ignore_selectors: string;
  /** JSON text: lines containing one of these patterns do not count. */
  ignore_text: string;
  /** JSON text of each filter (watch.0002_filters); defaults make older watches behave as before. */
  include_selectors: string;
  ignore_patterns: string;
  trigger_text: string;
  block_text: string;
  /** 0/1 */
  only_new_lines: number;
  /** `any`, `added` or `removed`. */
  changes: string;
  /** JSON text: [{selector, below?, above?, change_percent?}]. */
  conditions: string;
  /** 0/1 */
  restock: number;
  tags: string;
  /** JSON text: hashes of lines seen in earlier snapshots (only_new_lines), oldest first, bounded. */
  seen_lines: string;
  /** The last snapshot: `new` (none, or the first), `changed` (it notified) or `unchanged`. */
  last_state: string;
  /** JSON text: the `notify` targets (https URLs, `mailto:` addresses). */
  notify: string;
  last_checked_at: string | null;
  last_changed_at: string | null;
  /** Why the last check failed; null after a check that worked. */
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface WatchSnapshotsTable {
  id: string;
  watch_id: string;
  workspace_id: string;
  content_hash: string;
  word_count: number;
  /** `initial`, `same` or `changed`. */
  status: string;
  title: string;
  diff_summary: string | null;
  word_count_delta: number;
  links_added: number;
  links_removed: number;
  /** 0/1: whether this check notified (watch.changed); the decision, beside `status` (did the text change). */
  notified: number;
  /** Why it notified or stayed quiet; null when nothing happened. */
  reason: string | null;
  /** A short word-level diff of the page's own text (`09:12 → 09:47`). */
  excerpt: string | null;
  /** JSON text: what the check read beside the text (condition numbers, stock state); null before watch.0002. */
  observed: string | null;
  /** The page's markdown, gzip-compressed and base64-encoded. */
  content: string;
  /** The schedule slot the check was for; null for the first and manual checks. Unique per watch. */
  due_at: string | null;
  checked_at: string;
}

/** The last delivery attempt's outcome per target of a watch (`notify` and `webhook_url`). */
export interface WatchNotifyStatusTable {
  watch_id: string;
  target: string;
  /** `delivered`, `retrying` or `failed` (given up). */
  outcome: string;
  error: string | null;
  attempt: number;
  at: string;
}

// A type alias, not an interface: kysely's withTables needs the implicit index signature.
export type WatchTables = {
  watches: WatchesTable;
  watch_snapshots: WatchSnapshotsTable;
  watch_notify_status: WatchNotifyStatusTable;
};

export type WatchDatabase = Database & WatchTables;
export type WatchDb = Kysely<WatchDatabase>;
export type WatchExecutor = WatchDb | Transaction<WatchDatabase>;
