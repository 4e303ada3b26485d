/**
 * The Trawl client: one method per /v1 endpoint (each names its row of ENDPOINTS, the list the
 * drift test compares with /openapi.json), waiters for crawls, batches and lead batches,
 * iterators over paginated lists that follow `next`, and the crawl and batch event streams, which
 * resume with `Last-Event-ID` when the connection drops.
 */
import { Transport, WaitTimeoutError, sleep, type ClientOptions, type RequestSpec } from './http.js';
import type * as T from './types.js';

export const ENDPOINTS = [
  'GET /health',
  'GET /v1/plugins',
  'POST /v1/scrape',
  'POST /v1/map',
  'POST /v1/search',
  'POST /v1/extract',
  'POST /v1/summarize',
  'POST /v1/crawl',
  'GET /v1/crawl/{id}',
  'DELETE /v1/crawl/{id}',
  'GET /v1/crawl/{id}/pages',
  'GET /v1/crawl/{id}/stream',
  'GET /v1/crawl/history',
  'POST /v1/crawl/{id}/retry',
  'POST /v1/batch',
  'GET /v1/batch/{id}',
  'DELETE /v1/batch/{id}',
  'GET /v1/batch/{id}/stream',
  'POST /v1/lead',
  'POST /v1/lead/batch',
  'GET /v1/lead/batch/{id}',
  'POST /v1/brand',
  'POST /v1/diff',
  'POST /v1/endpoints',
  'POST /v1/webhooks',
  'GET /v1/webhooks',
  'GET /v1/webhooks/{id}',
  'PATCH /v1/webhooks/{id}',
  'DELETE /v1/webhooks/{id}',
  'GET /v1/webhooks/{id}/deliveries',
  'POST /v1/watch',
  'GET /v1/watch',
  'GET /v1/watch/{id}',
  'PATCH /v1/watch/{id}',
  'DELETE /v1/watch/{id}',
  'POST /v1/watch/{id}/check',
  'GET /v1/watch/{id}/diff',
  'POST /v1/watch/feed-token',
  'GET /v1/watch/feed-token',
  'DELETE /v1/watch/feed-token',
  'GET /v1/watch/feed.atom',
  'GET /v1/account',
  'GET /v1/keys',
  'POST /v1/keys',
  'PATCH /v1/keys/{id}',
  'DELETE /v1/keys/{id}',
  'POST /v1/social/monitors',
  'GET /v1/social/monitors',
  'GET /v1/social/monitors/{id}',
  'PATCH /v1/social/monitors/{id}',
  'DELETE /v1/social/monitors/{id}',
  'POST /v1/social/monitors/{id}/check',
  'POST /v1/social/audience',
  'GET /v1/cache/lookup',
  'GET /v1/results',
  'GET /v1/results/{id}',
  'GET /v1/results/run/{usage_log_id}',
  'GET /v1/usage',
] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

export interface WaitOptions {
  pollIntervalMs?: number;
  timeoutMs?: number;
}
export interface StreamOptions {
  lastEventId?: number;
  maxReconnects?: number;
  signal?: AbortSignal;
}

const ENDED = new Set(['completed', 'failed', 'cancelled']);

export class Trawl {
  readonly http: Transport;
  constructor(options: ClientOptions = {}) {
    this.http = new Transport(options);
  }

  /** Calls one endpoint: `{name}` placeholders are filled from `params` in order. */
  call<R>(endpoint: Endpoint, params: string[] = [], spec: Omit<RequestSpec, 'method' | 'path'> = {}): Promise<R> {
    const [method, template] = endpoint.split(' ') as [string, string];
    let i = 0;
    const path = template.replace(/\{[a-z_]+\}/g, () => encodeURIComponent(params[i++]!));
    return this.http.request<R>({ method, path, ...spec });
  }

  health() {
    return this.call<{ status: string; [k: string]: unknown }>('GET /health');
  }
  plugins() {
    return this.call<{ plugins: Array<Record<string, unknown>> }>('GET /v1/plugins');
  }
  scrape(request: T.ScrapeRequest) {
    return this.call<T.ScrapeResult>('POST /v1/scrape', [], { body: request });
  }
  map(request: T.MapRequest) {
    return this.call<T.MapResult>('POST /v1/map', [], { body: request });
  }
  search(request: T.SearchRequest) {
    return this.call<T.SearchResult>('POST /v1/search', [], { body: request });
  }
  extract(request: T.ExtractRequest) {
    return this.call<{ data: unknown; [k: string]: unknown }>('POST /v1/extract', [], { body: request });
  }
  summarize(request: T.SummarizeRequest) {
    return this.call<{ summary?: string; [k: string]: unknown }>('POST /v1/summarize', [], { body: request });
  }
  lead(request: T.UrlRequest) {
    return this.call<Record<string, unknown>>('POST /v1/lead', [], { body: request });
  }
  brand(request: T.UrlRequest) {
    return this.call<Record<string, unknown>>('POST /v1/brand', [], { body: request });
  }
  endpoints(request: T.EndpointsRequest) {
    return this.call<T.EndpointsResult>('POST /v1/endpoints', [], { body: request });
  }
  diff(request: T.DiffRequest) {
    return this.call<Record<string, unknown>>('POST /v1/diff', [], { body: request });
  }

  // Crawls
  startCrawl(request: T.CrawlRequest) {
    return this.call<T.RunStarted>('POST /v1/crawl', [], { body: request });
  }
  getCrawl(id: string, query: T.PageQuery = {}) {
    return this.call<T.RunStatusPage>('GET /v1/crawl/{id}', [id], { query: { ...query } });
  }
  cancelCrawl(id: string) {
    return this.call<T.RunStarted>('DELETE /v1/crawl/{id}', [id]);
  }
  crawlPages(id: string, query: T.PageQuery & { status?: 'completed' | 'failed' } = {}) {
    return this.call<T.Paged<'data', T.CrawlPage>>('GET /v1/crawl/{id}/pages', [id], { query: { ...query } });
  }
  iterCrawlPages(id: string, query: T.IterQuery & { status?: 'completed' | 'failed' } = {}) {
    return this.paginate<T.CrawlPage>('data', () => this.crawlPages(id, query));
  }
  crawlHistory(query: T.PageQuery = {}) {
    return this.call<T.Paged<'crawls', T.RunSummary>>('GET /v1/crawl/history', [], { query: { ...query } });
  }
  retryCrawl(id: string) {
    return this.call<T.RunStarted>('POST /v1/crawl/{id}/retry', [id]);
  }
  waitForCrawl(id: string, options: WaitOptions = {}) {
    return this.waitFor(
      () => this.getCrawl(id, { limit: 1 }),
      (r) => ENDED.has(r.status),
      options,
    );
  }
  async crawl(request: T.CrawlRequest, options: WaitOptions = {}) {
    return this.waitForCrawl((await this.startCrawl(request)).id, options);
  }
  streamCrawl(id: string, options: StreamOptions = {}) {
    return this.stream('GET /v1/crawl/{id}/stream', id, options);
  }

  // Batches
  startBatch(request: T.BatchRequest) {
    return this.call<T.RunStarted>('POST /v1/batch', [], { body: request });
  }
  getBatch(id: string, query: T.PageQuery = {}) {
    return this.call<T.RunStatusPage>('GET /v1/batch/{id}', [id], { query: { ...query } });
  }
  cancelBatch(id: string) {
    return this.call<T.RunStarted>('DELETE /v1/batch/{id}', [id]);
  }
  waitForBatch(id: string, options: WaitOptions = {}) {
    return this.waitFor(
      () => this.getBatch(id, { limit: 1 }),
      (r) => ENDED.has(r.status),
      options,
    );
  }
  async batch(request: T.BatchRequest, options: WaitOptions = {}) {
    return this.waitForBatch((await this.startBatch(request)).id, options);
  }
  streamBatch(id: string, options: StreamOptions = {}) {
    return this.stream('GET /v1/batch/{id}/stream', id, options);
  }

  // Lead batches
  startLeadBatch(request: T.LeadBatchRequest) {
    return this.call<T.RunStarted>('POST /v1/lead/batch', [], { body: request });
  }
  getLeadBatch(id: string) {
    return this.call<T.LeadBatch>('GET /v1/lead/batch/{id}', [id]);
  }
  waitForLeadBatch(id: string, options: WaitOptions = {}) {
    return this.waitFor(
      () => this.getLeadBatch(id),
      (r) => r.status === 'completed',
      options,
    );
  }

  // Webhooks
  createWebhook(request: T.WebhookRequest) {
    return this.call<T.Webhook>('POST /v1/webhooks', [], { body: request });
  }
  listWebhooks(query: T.PageQuery = {}) {
    return this.call<T.Paged<'webhooks', T.Webhook>>('GET /v1/webhooks', [], { query: { ...query } });
  }
  getWebhook(id: string) {
    return this.call<T.Webhook>('GET /v1/webhooks/{id}', [id]);
  }
  updateWebhook(id: string, patch: Partial<T.WebhookRequest> & { active?: boolean }) {
    return this.call<T.Webhook>('PATCH /v1/webhooks/{id}', [id], { body: patch });
  }
  deleteWebhook(id: string) {
    return this.call<Record<string, unknown>>('DELETE /v1/webhooks/{id}', [id]);
  }
  webhookDeliveries(id: string, query: T.PageQuery = {}) {
    return this.call<T.Paged<'deliveries', Record<string, unknown>>>('GET /v1/webhooks/{id}/deliveries', [id], { query: { ...query } });
  }

  // Watches
  createWatch(request: T.WatchRequest) {
    return this.call<T.Watch>('POST /v1/watch', [], { body: request });
  }
  listWatches(query: T.PageQuery = {}) {
    return this.call<T.Paged<'watches', T.Watch>>('GET /v1/watch', [], { query: { ...query } });
  }
  getWatch(id: string) {
    return this.call<T.Watch>('GET /v1/watch/{id}', [id]);
  }
  updateWatch(id: string, patch: T.WatchUpdate) {
    return this.call<T.Watch>('PATCH /v1/watch/{id}', [id], { body: patch });
  }
  deleteWatch(id: string) {
    return this.call<Record<string, unknown>>('DELETE /v1/watch/{id}', [id]);
  }
  checkWatch(id: string) {
    return this.call<Record<string, unknown>>('POST /v1/watch/{id}/check', [id]);
  }
  watchDiff(id: string, query: { from?: string; to?: string } = {}) {
    return this.call<Record<string, unknown>>('GET /v1/watch/{id}/diff', [id], { query });
  }
  /** Creates or rotates the workspace's feed token: the old feed URL stops working at once. */
  createFeedToken() {
    return this.call<T.FeedToken>('POST /v1/watch/feed-token');
  }
  getFeedToken() {
    return this.call<T.FeedTokenStatus>('GET /v1/watch/feed-token');
  }
  revokeFeedToken() {
    return this.call<{ success: true }>('DELETE /v1/watch/feed-token');
  }
  /** The Atom XML of the workspace's notified changes, opened by the feed token alone (as a feed reader does with `feed_url`). */
  watchFeed(token: string) {
    return this.call<string>('GET /v1/watch/feed.atom', [], { query: { token }, headers: { accept: 'application/atom+xml' } });
  }

  // The workspace's account and API keys (key management needs an admin key)
  account() {
    return this.call<T.Account>('GET /v1/account');
  }
  listKeys(query: T.PageQuery = {}) {
    return this.call<T.Paged<'keys', T.WorkspaceKey>>('GET /v1/keys', [], { query: { ...query } });
  }
  iterKeys(query: T.IterQuery = {}) {
    return this.paginate<T.WorkspaceKey>('keys', () => this.listKeys(query));
  }
  /** The secret `key` is in this answer only. */
  createKey(request: T.KeyRequest = {}) {
    return this.call<T.CreatedKey>('POST /v1/keys', [], { body: request });
  }
  renameKey(id: string, name: string | null) {
    return this.call<T.WorkspaceKey>('PATCH /v1/keys/{id}', [id], { body: { name } });
  }
  /** The next request with the key is a 401; the answer is the revoked key with its `revoked_at`. */
  revokeKey(id: string) {
    return this.call<T.WorkspaceKey & { success: true }>('DELETE /v1/keys/{id}', [id]);
  }

  // Social monitors and audience
  createSocialMonitor(request: T.SocialMonitorRequest) {
    return this.call<T.SocialMonitor>('POST /v1/social/monitors', [], { body: request });
  }
  listSocialMonitors(query: T.PageQuery = {}) {
    return this.call<T.Paged<'monitors', T.SocialMonitor>>('GET /v1/social/monitors', [], { query: { ...query } });
  }
  iterSocialMonitors(query: T.IterQuery = {}) {
    return this.paginate<T.SocialMonitor>('monitors', () => this.listSocialMonitors(query));
  }
  getSocialMonitor(id: string) {
    return this.call<T.SocialMonitor>('GET /v1/social/monitors/{id}', [id]);
  }
  updateSocialMonitor(id: string, patch: { name?: string; interval_minutes?: number; webhook_url?: string | null; active?: boolean }) {
    return this.call<{ success: true }>('PATCH /v1/social/monitors/{id}', [id], { body: patch });
  }
  deleteSocialMonitor(id: string) {
    return this.call<{ success: true }>('DELETE /v1/social/monitors/{id}', [id]);
  }
  checkSocialMonitor(id: string) {
    return this.call<{ status: 'checking' }>('POST /v1/social/monitors/{id}/check', [id]);
  }
  audience(request: T.AudienceRequest) {
    return this.call<T.AudiencePage>('POST /v1/social/audience', [], { body: request });
  }
  /** Every follower (or followed account), following `next_cursor` from page to page. */
  async *iterAudience(request: Omit<T.AudienceRequest, 'cursor'>): AsyncGenerator<T.AudienceUser> {
    let page = await this.audience(request);
    for (;;) {
      yield* page.users;
      if (!page.next_cursor) return;
      page = await this.audience({ ...request, handle: undefined, user_id: page.user_id, cursor: page.next_cursor });
    }
  }

  // Stored results and usage (cloud mode)
  cacheLookup(endpoint: string, url: string) {
    return this.call<T.StoredResult>('GET /v1/cache/lookup', [], { query: { endpoint, url } });
  }
  listResults(query: T.PageQuery & { endpoint?: string } = {}) {
    return this.call<T.Paged<'results', T.StoredResult>>('GET /v1/results', [], { query: { ...query } });
  }
  iterResults(query: T.IterQuery & { endpoint?: string } = {}) {
    return this.paginate<T.StoredResult>('results', () => this.listResults(query));
  }
  getResult(id: string) {
    return this.call<T.StoredResult>('GET /v1/results/{id}', [id]);
  }
  runResult(usageLogId: string) {
    return this.call<T.StoredResult>('GET /v1/results/run/{usage_log_id}', [usageLogId]);
  }
  usage(query: T.PageQuery & Record<string, string | number | undefined> = {}) {
    return this.call<Record<string, unknown>>('GET /v1/usage', [], { query });
  }

  /** Every item of a paginated list, following each answer's `next` path. */
  async *paginate<I>(key: string, first: () => Promise<Record<string, unknown>>): AsyncGenerator<I> {
    let page = await first();
    for (;;) {
      yield* (page[key] as I[]) ?? [];
      if (typeof page.next !== 'string') return;
      const next = new URL(page.next, 'http://x');
      page = await this.http.request({ method: 'GET', path: next.pathname, query: Object.fromEntries(next.searchParams) });
    }
  }

  private async waitFor<R>(
    get: () => Promise<R>,
    done: (r: R) => boolean,
    { pollIntervalMs = 1000, timeoutMs = 600_000 }: WaitOptions,
  ): Promise<R> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const current = await get();
      if (done(current)) return current;
      if (Date.now() + pollIntervalMs > deadline) throw new WaitTimeoutError(`still ${(current as any).status} after ${timeoutMs} ms`);
      await sleep(pollIntervalMs);
    }
  }

  /** Events until `end`; a dropped connection resumes after the last event seen. */
  private async *stream(
    endpoint: Endpoint,
    id: string,
    { lastEventId, maxReconnects = 5, signal }: StreamOptions,
  ): AsyncGenerator<T.StreamEvent> {
    let last = lastEventId;
    for (let failures = 0; ; ) {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (last !== undefined) headers['last-event-id'] = String(last);
      let progressed = false;
      try {
        const response = await this.call<Response>(endpoint, [id], { headers, raw: true, signal });
        for await (const event of parseEvents(response.body!)) {
          if (event.id !== null) last = event.id;
          progressed = true;
          yield event;
          if (event.event === 'end' || event.event === 'error') return;
        }
      } catch (err) {
        if (signal?.aborted || (err as any)?.status) throw err;
      }
      failures = progressed ? 0 : failures + 1;
      if (failures > maxReconnects) throw new Error(`stream of ${id} dropped ${failures} times without an event`);
      if (!progressed) await sleep(Math.min(5000, 200 * 2 ** failures));
    }
  }
}

/** Server-Sent Events from a body: `id:`, `event:` and `data:` fields, one event per blank line. */
export async function* parseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<T.StreamEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let fields: { id: number | null; event: string; data: string[] } = { id: null, event: 'message', data: [] };
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      if (line === '') {
        if (fields.data.length) {
          const text = fields.data.join('\n');
          let data: unknown = text;
          try {
            data = JSON.parse(text);
          } catch {}
          yield { id: fields.id, event: fields.event, data };
        }
        fields = { id: null, event: 'message', data: [] };
        continue;
      }
      const colon = line.indexOf(':');
      if (colon === 0) continue;
      const name = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (name === 'id' && /^\d+$/.test(value)) fields.id = Number(value);
      else if (name === 'event') fields.event = value;
      else if (name === 'data') fields.data.push(value);
    }
  }
}
