/**
 * What a watch and a snapshot are, and how each maps to and from its table row: rows are read
 * through values.ts (booleans, integers and JSON differ between drivers), and a snapshot's content
 * is stored gzip-compressed. The queries are in store.ts.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Selectable } from 'kysely';
import { readBool, readInt, readJson, writeBool } from '../../storage/values.ts';
import { conditionFromJson, conditionToJson, type ChangeMode, type IgnorePattern, type Observed, type WatchFilters } from './filters.ts';
import type { WatchesTable, WatchSnapshotsTable } from './tables.ts';

export interface Watch extends WatchFilters {
  id: string;
  workspace: string;
  url: string;
  name: string;
  intervalMinutes: number;
  webhookUrl: string | null;
  active: boolean;
  tags: string[];
  /** Targets told of each notifying check beside `webhookUrl`: https URLs and `mailto:` addresses. */
  notify: string[];
  /** What the last snapshot said: `new` (none yet, or the first), `changed` (it notified) or `unchanged`. */
  lastState: 'new' | 'changed' | 'unchanged';
  lastCheckedAt: string | null;
  lastChangedAt: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

export type SnapshotStatus = 'initial' | 'same' | 'changed';

export interface Snapshot {
  id: string;
  watchId: string;
  contentHash: string;
  wordCount: number;
  status: SnapshotStatus;
  title: string;
  diffSummary: string | null;
  wordCountDelta: number;
  linksAdded: number;
  linksRemoved: number;
  /** Whether this check notified (watch.changed); `status` says whether the text changed. */
  notified: boolean;
  /** Why it notified or stayed quiet; null when there was nothing to decide. */
  reason: string | null;
  /** A short word-level diff of the page's own text. */
  excerpt: string | null;
  /** What the check read beside the text, for the next check's conditions and restock. */
  observed: Observed | null;
  dueAt: string | null;
  checkedAt: string;
}

export type NewWatch = Pick<Watch, 'url' | 'name' | 'intervalMinutes' | 'webhookUrl' | 'tags'> &
  Partial<Pick<Watch, 'notify'>> &
  WatchFilters;
export type WatchPatch = Partial<Pick<Watch, 'name' | 'intervalMinutes' | 'webhookUrl' | 'active' | 'tags' | 'notify'> & WatchFilters>;

/** GET /v1/watch narrowing: one tag, and text the name or URL contains (case-insensitive). */
export interface WatchListFilter {
  tag?: string;
  search?: string;
}

/** Columns of the filters, written from a (partial) watch. */
export function filterColumns(w: Partial<NewWatch>): Partial<WatchesTable> {
  const set: Partial<WatchesTable> = {};
  if (w.ignoreSelectors !== undefined) set.ignore_selectors = JSON.stringify(w.ignoreSelectors);
  if (w.ignoreText !== undefined) set.ignore_text = JSON.stringify(w.ignoreText);
  if (w.includeSelectors !== undefined) set.include_selectors = JSON.stringify(w.includeSelectors);
  if (w.ignorePatterns !== undefined) set.ignore_patterns = JSON.stringify(w.ignorePatterns);
  if (w.triggerText !== undefined) set.trigger_text = JSON.stringify(w.triggerText);
  if (w.blockText !== undefined) set.block_text = JSON.stringify(w.blockText);
  if (w.onlyNewLines !== undefined) set.only_new_lines = writeBool(w.onlyNewLines);
  if (w.changes !== undefined) set.changes = w.changes;
  if (w.conditions !== undefined) set.conditions = JSON.stringify(w.conditions.map(conditionToJson));
  if (w.restock !== undefined) set.restock = writeBool(w.restock);
  if (w.tags !== undefined) set.tags = JSON.stringify(w.tags);
  if (w.notify !== undefined) set.notify = JSON.stringify(w.notify);
  return set;
}

export const toWatch = (row: Selectable<WatchesTable>): Watch => ({
  id: row.id,
  workspace: row.workspace_id,
  url: row.url,
  name: row.name,
  intervalMinutes: readInt(row.interval_minutes),
  webhookUrl: row.webhook_url,
  active: readBool(row.active),
  ignoreSelectors: readJson<string[]>(row.ignore_selectors),
  ignoreText: readJson<string[]>(row.ignore_text),
  includeSelectors: readJson<string[]>(row.include_selectors),
  ignorePatterns: readJson<IgnorePattern[]>(row.ignore_patterns),
  triggerText: readJson<string[]>(row.trigger_text),
  blockText: readJson<string[]>(row.block_text),
  onlyNewLines: readBool(row.only_new_lines),
  changes: row.changes as ChangeMode,
  conditions: readJson<Array<Parameters<typeof conditionFromJson>[0]>>(row.conditions).map(conditionFromJson),
  restock: readBool(row.restock),
  tags: readJson<string[]>(row.tags),
  notify: readJson<string[]>(row.notify),
  lastState: row.last_state as Watch['lastState'],
  lastCheckedAt: row.last_checked_at,
  lastChangedAt: row.last_changed_at,
  lastError: row.last_error,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export const SNAPSHOT_COLUMNS = [
  'id',
  'watch_id',
  'content_hash',
  'word_count',
  'status',
  'title',
  'diff_summary',
  'word_count_delta',
  'links_added',
  'links_removed',
  'notified',
  'reason',
  'excerpt',
  'observed',
  'due_at',
  'checked_at',
] as const;

export const toSnapshot = (row: Omit<Selectable<WatchSnapshotsTable>, 'content' | 'workspace_id'>): Snapshot => ({
  id: row.id,
  watchId: row.watch_id,
  contentHash: row.content_hash,
  wordCount: readInt(row.word_count),
  status: row.status as SnapshotStatus,
  title: row.title,
  diffSummary: row.diff_summary,
  wordCountDelta: readInt(row.word_count_delta),
  linksAdded: readInt(row.links_added),
  linksRemoved: readInt(row.links_removed),
  notified: readBool(row.notified),
  reason: row.reason,
  excerpt: row.excerpt,
  observed: row.observed === null ? null : readJson<Observed>(row.observed),
  dueAt: row.due_at,
  checkedAt: row.checked_at,
});

export const packContent = (markdown: string) => gzipSync(markdown).toString('base64');
export const unpackContent = (packed: string) => gunzipSync(Buffer.from(packed, 'base64')).toString('utf8');
