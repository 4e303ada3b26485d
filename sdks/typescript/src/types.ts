/**
 * Request and response shapes of the /v1 API, written against /openapi.json. The commonly used
 * fields are typed; every object also admits the fields a newer server adds.
 */
type Open = { [key: string]: unknown };

export type Format = 'markdown' | 'html' | 'raw_html' | 'text' | 'links' | 'images' | 'metadata' | 'screenshot' | 'json' | (string & {});
export interface ScrapeOptions extends Open {
  formats?: Format[];
  include_selectors?: string[];
  exclude_selectors?: string[];
  no_cache?: boolean;
  timeout?: number;
  max_age_ms?: number;
  headers?: Record<string, string>;
  actions?: Open[];
  screenshot?: boolean | Open;
  mobile?: boolean;
  render?: boolean | 'auto';
  only_main_content?: boolean;
}
export interface ScrapeRequest extends ScrapeOptions {
  url: string;
}
export interface Link {
  text: string;
  href: string;
}
export interface ScrapeResult extends Open {
  url?: string;
  markdown?: string;
  rawHtml?: string;
  text?: string;
  links?: Link[];
  metadata?: Open;
  screenshot?: string;
  extract?: unknown;
  warnings?: unknown[];
}

export type RunStatus = 'queued' | 'scraping' | 'completed' | 'failed' | 'cancelled';
export interface CrawlRequest extends Open {
  url: string;
  max_depth?: number;
  max_pages?: number;
  allow_subdomains?: boolean;
  allow_external_links?: boolean;
  include_paths?: string[];
  exclude_paths?: string[];
  webhook_url?: string;
  scrape_options?: ScrapeOptions;
}
export interface RunStarted extends Open {
  id: string;
  status: RunStatus;
}
export interface CrawlPage extends Open {
  url: string;
  status: 'completed' | 'failed';
  markdown?: string;
  error?: string;
}
export interface RunSummary extends Open {
  id: string;
  status: RunStatus;
  url?: string;
  total: number;
  completed: number;
  failed: number;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** When the run is deleted and its status becomes a 404; null when the server keeps runs forever. */
  expires_at: string | null;
  error?: string | null;
  retry_of?: string | null;
}
export interface RunStatusPage extends RunSummary {
  data: CrawlPage[];
  limit: number;
  offset: number;
  next?: string;
}
/**
 * One slice of a list: its items under the endpoint's key (`data`, `crawls`, `webhooks` …), the list's
 * `total`, the slice (`limit`, `offset`; `page`/`per_page` say the same in the alias's terms) and
 * `next` while more exist.
 */
export type Paged<K extends string, T> = { total: number; limit: number; offset: number; page: number; per_page: number; next?: string } & {
  [P in K]: T[];
};
/** `limit` (1–100, default 20) and `offset`; `page`/`per_page` are the older alias — the server refuses both styles at once. */
export interface PageQuery {
  limit?: number;
  offset?: number;
  page?: number;
  per_page?: number;
}
/** What an iterator takes: the slice size (it follows `next` for the rest). */
export type IterQuery = Pick<PageQuery, 'limit' | 'per_page'>;

export interface BatchRequest extends ScrapeOptions {
  urls: string[];
  webhook_url?: string;
  query?: string;
  extract?: Open;
}
export interface MapRequest extends Open {
  url: string;
  search?: string;
  limit?: number;
  include_subdomains?: boolean;
  sitemap?: 'include' | 'only' | 'skip';
  filter_by_path?: boolean;
}
export interface MapResult extends Open {
  id?: string;
  links: Array<string | Open>;
  warnings?: string[];
}
export interface SearchRequest extends Open {
  query: string;
  num_results?: number;
  scrape?: boolean;
  formats?: Format[];
  country?: string;
  lang?: string;
}
export interface SearchResult extends Open {
  results?: Open[];
}
export interface ExtractRequest extends Open {
  url: string;
  prompt?: string;
  schema?: Open;
  only_main_content?: boolean;
}
export interface SummarizeRequest extends Open {
  url: string;
  length?: string;
  mode?: string;
  formats?: string[];
}
export interface UrlRequest extends Open {
  url: string;
  no_cache?: boolean;
  timeout?: number;
}
export interface LeadBatchRequest extends Open {
  urls: string[];
  webhook_url?: string;
  no_cache?: boolean;
}
export interface LeadBatch extends Open {
  id: string;
  status: 'queued' | 'processing' | 'completed';
  total: number;
  completed: number;
  failed: number;
  data?: Open[];
}
export interface EndpointsRequest extends Open {
  url: string;
  include_third_party?: boolean;
  max_bundles?: number;
}
export interface FoundEndpoint extends Open {
  value: string;
  kind: string;
  first_party: boolean;
  source: string;
}
export interface EndpointsResult extends Open {
  url: string;
  bundles_scanned: number;
  endpoint_count: number;
  endpoints: FoundEndpoint[];
  hosts: unknown[];
  truncated: boolean;
}
export interface DiffRequest extends Open {
  url: string;
  previous?: string;
}

export interface WebhookRequest extends Open {
  url: string;
  events: string[];
}
export interface Webhook extends Open {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  secret?: string;
}
export type IgnorePattern = 'clock' | 'relative_time' | 'counters' | 'tokens';
/** A number read at `selector` notifies when below, above, or moved by `change_percent`. */
export interface WatchCondition {
  selector: string;
  below?: number;
  above?: number;
  change_percent?: number;
}
/** What decides whether a check notifies, and whom it tells. */
export interface WatchSettings {
  name?: string;
  interval_minutes?: number;
  webhook_url?: string | null;
  include_selectors?: string[];
  ignore_selectors?: string[];
  ignore_text?: string[];
  ignore_patterns?: IgnorePattern[];
  trigger_text?: string[];
  block_text?: string[];
  only_new_lines?: boolean;
  changes?: 'any' | 'added' | 'removed';
  conditions?: WatchCondition[];
  restock?: boolean;
  tags?: string[];
  notify?: string[];
}
export interface WatchRequest extends Open, WatchSettings {
  url: string;
}
export interface WatchUpdate extends Open, WatchSettings {
  active?: boolean;
}
export interface NotifyStatus {
  target: string;
  ok: boolean;
  outcome: 'delivered' | 'retrying' | 'failed';
  error: string | null;
  attempt: number;
  at: string;
}
export interface WatchSnapshot extends Open {
  id: string;
  status: 'initial' | 'same' | 'changed';
  notified?: boolean;
  reason?: string | null;
  excerpt?: string | null;
  title?: string;
  diff_summary?: string | null;
  checked_at?: string;
}
export interface Watch extends Open, Omit<WatchSettings, 'name' | 'interval_minutes'> {
  id: string;
  url: string;
  name: string;
  interval_minutes: number;
  active: boolean;
  state?: 'new' | 'changed' | 'unchanged' | 'error' | 'paused';
  last_checked_at: string | null;
  last_changed_at: string | null;
  next_check_at?: string | null;
  last_error?: string | null;
  notify_status?: NotifyStatus[];
  snapshots?: WatchSnapshot[];
  created_at: string;
}
/** The feed token is in the create answer only; `feed_url` is the Atom feed's address with it. */
export interface FeedToken {
  token: string;
  feed_url: string;
  created_at: string;
}
export interface FeedTokenStatus {
  active: boolean;
  created_at: string | null;
}

/** `admin` manages keys and sees the balance; `member` calls the API only. */
export type KeyRole = 'admin' | 'member';
export interface Account extends Open {
  workspace: { id: string; name: string };
  mode: 'cloud' | 'self-hosted';
  plan: string | null;
  status: string | null;
  /** Admin keys only; null for a member key and on a self-hosted server. */
  balance: number | null;
  rate_limit_per_minute: number | null;
  key: { id: string; role: KeyRole } | null;
  role: KeyRole;
}
/** A workspace key as listed: never the secret, only its last four characters. */
export interface WorkspaceKey extends Open {
  id: string;
  name: string | null;
  role: KeyRole;
  suffix: string | null;
  created_at: string;
  revoked_at: string | null;
  current: boolean;
}
/** The create answer, the only one holding the secret `key`. */
export interface CreatedKey extends WorkspaceKey {
  key: string;
}
export interface KeyRequest {
  name?: string;
  role?: KeyRole;
}
export interface SocialMonitorRequest extends Open {
  kind: 'profile' | 'search' | 'list' | 'replies';
  target: string;
  name?: string;
  interval_minutes?: number;
  webhook_url?: string;
  include_retweets?: boolean;
  include_replies?: boolean;
  include_quotes?: boolean;
  min_faves?: number;
  keyword?: string;
  lang?: string;
}
export interface SocialMonitor extends Open {
  id: string;
  kind: string;
  target: string;
  name: string | null;
  interval_minutes: number;
  webhook_url: string | null;
  active: boolean;
}
export interface AudienceRequest extends Open {
  handle?: string;
  user_id?: string;
  direction?: 'followers' | 'following';
  cursor?: string;
  max_pages?: number;
}
export interface AudienceUser extends Open {
  id: string;
  screen_name: string;
  name: string;
}
export interface AudiencePage extends Open {
  user_id: string;
  direction: 'followers' | 'following';
  count: number;
  users: AudienceUser[];
  next_cursor: string | null;
  pages_fetched: number;
  credits_charged: number;
}
export interface StoredResult extends Open {
  id: string;
  endpoint: string;
  url: string;
  data?: unknown;
}

/** One Server-Sent Event of a crawl or batch stream. */
export interface StreamEvent {
  id: number | null;
  event: string;
  data: any;
}
