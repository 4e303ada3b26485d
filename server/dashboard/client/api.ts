/**
 * The dashboard's calls of the /v1 API with the key kept in localStorage, and the shapes it reads.
 * A 401 is a KeyError, so the page can ask for the key instead of showing a failure.
 */

const KEY = 'trawl.apiKey';

export class KeyError extends Error {}

export const storedKey = () => localStorage.getItem(KEY);
export const storeKey = (key: string) => localStorage.setItem(KEY, key);
export const forgetKey = () => localStorage.removeItem(KEY);

export interface Condition {
  selector: string;
  below?: number;
  above?: number;
  change_percent?: number;
}

/** The settings a watch is created with (and exported as). */
export interface WatchSettings {
  url: string;
  name?: string;
  interval_minutes?: number;
  tags?: string[];
  include_selectors?: string[];
  ignore_selectors?: string[];
  ignore_text?: string[];
  ignore_patterns?: string[];
  trigger_text?: string[];
  block_text?: string[];
  only_new_lines?: boolean;
  changes?: 'any' | 'added' | 'removed';
  conditions?: Condition[];
  restock?: boolean;
  notify?: string[];
  webhook_url?: string | null;
}

/** The last delivery outcome of one notify target. */
export interface NotifyStatus {
  target: string;
  ok: boolean;
  outcome: 'delivered' | 'retrying' | 'failed';
  error: string | null;
  attempt: number;
  at: string;
}

export interface Watch extends WatchSettings {
  id: string;
  name: string;
  interval_minutes: number;
  active: boolean;
  state?: 'new' | 'changed' | 'unchanged' | 'error' | 'paused';
  last_checked_at: string | null;
  last_changed_at: string | null;
  next_check_at?: string | null;
  last_error: string | null;
  notify_status?: NotifyStatus[];
}

export interface Snapshot {
  id: string;
  status: string;
  title: string;
  diff_summary: string | null;
  checked_at: string;
  notified?: boolean;
  reason?: string | null;
  excerpt?: string | null;
}

export interface WordPart {
  type: 'same' | 'added' | 'removed';
  text: string;
}
export interface DiffLine {
  type: 'same' | 'added' | 'removed' | 'changed';
  old?: string;
  new?: string;
  words?: WordPart[];
}

export async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const key = storedKey();
  if (key) headers.authorization = `Bearer ${key}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json().catch(() => ({}));
  if (res.status === 401) throw new KeyError(data.error || 'Invalid or missing API key');
  if (!res.ok) throw new Error(data.error || `HTTP ${res.status}`);
  return data as T;
}

const PAGE = 100;

/** Every watch matching the filters, page by page (limit/offset). */
export async function allWatches(filters: { search?: string; tag?: string } = {}): Promise<{ watches: Watch[]; total: number }> {
  const watches: Watch[] = [];
  const seen = new Set<string>();
  for (;;) {
    const query = new URLSearchParams({ limit: String(PAGE), offset: String(watches.length) });
    if (filters.search) query.set('search', filters.search);
    if (filters.tag) query.set('tag', filters.tag);
    const page = await api<{ watches: Watch[]; total: number }>('GET', `/v1/watch?${query}`);
    const fresh = page.watches.filter((w) => !seen.has(w.id));
    for (const w of fresh) seen.add(w.id);
    watches.push(...fresh);
    // A page with nothing new ends the walk, whatever the total says (the list may change meanwhile).
    if (fresh.length === 0 || watches.length >= page.total) return { watches, total: page.total };
  }
}

/** Runs `work` on every item, `width` at a time; resolves to how many failed. */
export async function eachLimited<T>(items: T[], width: number, work: (item: T) => Promise<unknown>): Promise<number> {
  let next = 0;
  let failed = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item).catch(() => {
        failed++;
      });
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return failed;
}
