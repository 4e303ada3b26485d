/**
 * The TypeScript SDK against a real Trawl server (sdks/harness.ts): every method once, the
 * waiters, pagination, the crawl stream resumed after a dropped connection, each error class,
 * a retry after a 429, webhook verification, and the drift check against /openapi.json.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startSdkHarness, type SdkHarness } from '../../harness.ts';
import {
  AuthenticationError,
  ConflictError,
  ENDPOINTS,
  InsufficientCreditsError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  SDK_VERSION,
  Trawl,
  UnprocessableError,
  WaitTimeoutError,
  WebhookVerificationError,
  signWebhook,
  verifyWebhook,
} from '../src/index.ts';
import { anySignal, listenToAll } from '../src/signals.ts';
import rootPackage from '../../../package.json';
import sdkPackage from '../package.json';

let harness: SdkHarness;
let trawl: Trawl;
/** The account tests' own workspace: they change its keys, and spend its per-minute budget rather than main's. */
let own: Trawl;
const site = (path: string) => harness.env.site + path;
const failure = async (work: Promise<unknown>) =>
  work.then(
    () => {
      throw new Error('expected a failure');
    },
    (err) => err,
  );

beforeAll(async () => {
  harness = await startSdkHarness();
  trawl = new Trawl({ baseUrl: harness.env.url, apiKey: harness.env.keys.main, backoffMs: 20 });
  own = new Trawl({ baseUrl: harness.env.url, apiKey: harness.env.keys.account });
});
afterAll(() => harness.stop());

describe('TypeScript SDK', () => {
  test("the endpoint list is exactly the /v1 part of /openapi.json, and the version is Trawl's", async () => {
    const doc = await (await fetch(`${harness.env.url}/openapi.json`)).json();
    const documented = Object.entries<Record<string, unknown>>(doc.paths)
      .filter(([path]) => path.startsWith('/v1/') || path === '/health')
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`));
    expect([...ENDPOINTS].sort() as string[]).toEqual(documented.sort());
    expect(SDK_VERSION).toBe(rootPackage.version);
    expect(sdkPackage.version).toBe(rootPackage.version);
  });

  test('reads TRAWL_API_URL and TRAWL_API_KEY', async () => {
    process.env.TRAWL_API_URL = harness.env.url;
    process.env.TRAWL_API_KEY = harness.env.keys.main;
    try {
      expect((await new Trawl().plugins()).plugins.length).toBeGreaterThan(0);
    } finally {
      delete process.env.TRAWL_API_URL;
      delete process.env.TRAWL_API_KEY;
    }
  });

  test('one-shot endpoints', async () => {
    expect((await trawl.health()).status).toBeDefined();
    const page = await trawl.scrape({ url: site('/a'), formats: ['markdown', 'links'] });
    expect(page.markdown).toContain('Page a');
    expect((await trawl.map({ url: site('/') })).links.length).toBeGreaterThan(0);
    expect(JSON.stringify(await trawl.search({ query: 'sea' }))).toContain(site('/a'));
    expect(
      (await trawl.extract({ url: site('/a'), schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } }))
        .data,
    ).toEqual({ title: 'Tides' });
    expect((await trawl.summarize({ url: site('/a') })).summary).toBe('Tides');
    expect(JSON.stringify(await trawl.lead({ url: site('/') }))).toContain('hello@example.com');
    expect(await trawl.brand({ url: site('/') })).toBeObject();
    expect(await trawl.diff({ url: site('/b') })).toBeObject();
    expect((await trawl.endpoints({ url: site('/api') })).endpoints.map((e) => e.value)).toContain('/api/v2/orders');
  });

  test('crawl: waiter, pages iterator, history, stream resumed after drops, retry and cancel', async () => {
    const done = await trawl.crawl({ url: site('/'), max_pages: 4 }, { pollIntervalMs: 50, timeoutMs: 20_000 });
    expect(done.status).toBe('completed');
    expect(done.completed).toBe(4);
    const pages = [];
    for await (const p of trawl.iterCrawlPages(done.id, { limit: 1 })) pages.push(p.url);
    expect(pages.sort()).toEqual([site('/'), site('/a'), site('/b'), site('/c')].sort());
    const second = await trawl.crawlPages(done.id, { limit: 2, offset: 2 });
    expect(second).toMatchObject({ total: 4, limit: 2, offset: 2 });
    expect(second.next).toBeUndefined();
    // page/per_page stay an alias of the same slice.
    expect((await trawl.crawlPages(done.id, { page: 2, per_page: 2 })).data).toEqual(second.data);
    expect((await trawl.crawlPages(done.id, { status: 'failed' })).total).toBe(0);
    expect((await trawl.crawlHistory()).crawls.map((c) => c.id)).toContain(done.id);

    // The harness's front cuts every connection after its first event: the SDK must resume each time.
    const resuming = new Trawl({ baseUrl: harness.env.cuttingUrl, apiKey: harness.env.keys.main });
    const events = [];
    for await (const event of resuming.streamCrawl(done.id)) events.push(event);
    expect(events.filter((e) => e.event === 'page').map((e) => e.id)).toEqual([1, 2, 3, 4]);
    expect(events.at(-1)).toMatchObject({ event: 'end', data: { status: 'completed' } });
    const fromTwo = [];
    for await (const event of trawl.streamCrawl(done.id, { lastEventId: 2 })) fromTwo.push(event.id);
    expect(fromTwo).toEqual([3, 4, null]);

    const retried = await trawl.retryCrawl(done.id);
    expect(retried.id).not.toBe(done.id);
    await trawl.waitForCrawl(retried.id, { pollIntervalMs: 50, timeoutMs: 20_000 });
    const error = await failure(trawl.cancelCrawl(done.id));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.status).toBe(409);
    const slow = await trawl.startCrawl({ url: site('/slow') });
    expect(await failure(trawl.waitForCrawl(slow.id, { pollIntervalMs: 1, timeoutMs: 0 }))).toBeInstanceOf(WaitTimeoutError);
    expect((await trawl.cancelCrawl(slow.id)).status).toBe('cancelled');
  });

  test('batch and lead batch waiters, batch stream and cancel', async () => {
    const batch = await trawl.batch({ urls: [site('/a'), site('/b')] }, { pollIntervalMs: 50, timeoutMs: 20_000 });
    expect(batch).toMatchObject({ status: 'completed', completed: 2 });
    expect((await trawl.getBatch(batch.id)).data.length).toBe(2);
    const events = [];
    for await (const event of trawl.streamBatch(batch.id)) events.push(event.event);
    expect(events).toEqual(['page', 'page', 'end']);
    expect(await failure(trawl.cancelBatch(batch.id))).toBeInstanceOf(ConflictError);
    const leads = await trawl.startLeadBatch({ urls: [site('/'), site('/a')] });
    const finished = await trawl.waitForLeadBatch(leads.id, { pollIntervalMs: 50, timeoutMs: 20_000 });
    expect(finished).toMatchObject({ status: 'completed', total: 2 });
  });

  test('webhooks and watches', async () => {
    const hook = await trawl.createWebhook({ url: site('/hook'), events: ['crawl.completed'] });
    expect(hook.secret).toStartWith('whsec_');
    expect((await trawl.listWebhooks()).webhooks.map((w: any) => w.id)).toContain(hook.id);
    expect((await trawl.getWebhook(hook.id)).url).toBe(site('/hook'));
    expect((await trawl.updateWebhook(hook.id, { active: false })).active).toBe(false);
    expect((await trawl.webhookDeliveries(hook.id)).total).toBe(0);
    await trawl.deleteWebhook(hook.id);
    expect(await failure(trawl.getWebhook(hook.id))).toBeInstanceOf(NotFoundError);

    const watch = await trawl.createWatch({
      url: site('/c'),
      name: 'c',
      ignore_patterns: ['clock'],
      trigger_text: ['sea'],
      changes: 'any',
      tags: ['docs'],
    });
    expect(watch).toMatchObject({ ignore_patterns: ['clock'], trigger_text: ['sea'], changes: 'any', tags: ['docs'], state: 'new' });
    expect((await trawl.listWatches()).watches.map((w) => w.id)).toContain(watch.id);
    expect((await trawl.updateWatch(watch.id, { name: 'page c' })).name).toBe('page c');
    await trawl.checkWatch(watch.id);
    for (const deadline = Date.now() + 10_000; ((await trawl.getWatch(watch.id)).snapshots?.length ?? 0) < 2; await Bun.sleep(30)) {
      if (Date.now() > deadline) throw new Error('the manual check made no snapshot');
    }
    const [latest] = (await trawl.getWatch(watch.id)).snapshots!;
    expect(typeof latest!.notified).toBe('boolean');
    expect(await trawl.watchDiff(watch.id)).toBeObject();
    await trawl.deleteWatch(watch.id);
  });

  test('account and keys: create, list, rename, revoke', async () => {
    const account = await own.account();
    expect(account).toMatchObject({ mode: 'cloud', role: 'admin', plan: 'starter' });
    expect(account.balance).toBeNumber();
    const created = await own.createKey({ name: 'ci', role: 'member' });
    expect(created.key).toMatch(/^trawl_/);
    expect(created).toMatchObject({ name: 'ci', role: 'member', suffix: created.key.slice(-4), revoked_at: null, current: false });
    const listed = [];
    for await (const key of own.iterKeys({ limit: 1 })) listed.push(key);
    expect(listed.find((k) => k.id === created.id)).toMatchObject({ name: 'ci', role: 'member' });
    expect(listed.some((k) => k.current)).toBe(true);
    expect(listed.every((k) => !('key' in k))).toBe(true);
    expect((await own.renameKey(created.id, 'deploys')).name).toBe('deploys');
    const member = new Trawl({ baseUrl: harness.env.url, apiKey: created.key });
    expect(await member.account()).toMatchObject({ role: 'member', balance: null, key: { id: created.id, role: 'member' } });
    expect(await failure(member.listKeys())).toBeInstanceOf(PermissionDeniedError);
    const revoked = await own.revokeKey(created.id);
    expect(revoked).toMatchObject({ success: true, id: created.id, name: 'deploys' });
    expect(revoked.revoked_at).toBeString();
    expect(await failure(member.account())).toBeInstanceOf(AuthenticationError);
    expect((await own.listKeys()).keys.map((k) => k.id)).not.toContain(created.id);
  });

  test('the watch feed token and the Atom feed it opens', async () => {
    const token = await own.createFeedToken();
    expect(token.token).toStartWith('trawl_feed_');
    expect(token.feed_url).toEndWith(`/v1/watch/feed.atom?token=${token.token}`);
    expect(await own.getFeedToken()).toEqual({ active: true, created_at: token.created_at });
    // A client without any API key reads the feed with the token alone, as a feed reader does.
    const reader = new Trawl({ baseUrl: harness.env.url, apiKey: '' });
    const xml = await reader.watchFeed(token.token);
    expect(xml).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(await failure(reader.watchFeed('trawl_feed_wrong'))).toBeInstanceOf(AuthenticationError);
    expect(await own.revokeFeedToken()).toEqual({ success: true });
    expect(await own.getFeedToken()).toEqual({ active: false, created_at: null });
    expect(await failure(reader.watchFeed(token.token))).toBeInstanceOf(AuthenticationError);
    expect(await failure(own.revokeFeedToken())).toBeInstanceOf(NotFoundError);
  });

  test('social monitors and the audience cursor', async () => {
    const monitor = await trawl.createSocialMonitor({ kind: 'profile', target: 'harbour' });
    expect((await trawl.listSocialMonitors()).monitors.map((m) => m.id)).toContain(monitor.id);
    const firstMonitors = await trawl.listSocialMonitors({ limit: 1 });
    const walked = [];
    for await (const m of trawl.iterSocialMonitors({ limit: 1 })) walked.push(m.id);
    expect(walked).toHaveLength(firstMonitors.total);
    expect(walked).toContain(monitor.id);
    expect(await trawl.updateSocialMonitor(monitor.id, { name: 'harbour posts' })).toEqual({ success: true });
    expect((await trawl.getSocialMonitor(monitor.id)).name).toBe('harbour posts');
    expect((await trawl.checkSocialMonitor(monitor.id)).status).toBe('checking');
    await trawl.deleteSocialMonitor(monitor.id);
    expect(await failure(trawl.getSocialMonitor(monitor.id))).toBeInstanceOf(NotFoundError);
    const first = await trawl.audience({ handle: 'harbour', max_pages: 1 });
    expect(first).toMatchObject({ user_id: '42', count: 1000 });
    const ids = new Set<string>();
    for await (const user of trawl.iterAudience({ handle: 'harbour', max_pages: 1 })) ids.add(user.id);
    expect(ids.size).toBe(2500);
  });

  test('stored results, cache lookup and usage', async () => {
    await trawl.scrape({ url: site('/b') });
    const all = [];
    for await (const result of trawl.iterResults({ per_page: 1 })) all.push(result);
    expect(all.length).toBeGreaterThan(1);
    expect((await trawl.getResult(all[0]!.id)).id).toBe(all[0]!.id);
    expect((await trawl.cacheLookup('scrape', site('/b'))).url).toBe(site('/b'));
    const usage = (await trawl.usage({ per_page: 5 })) as any;
    expect(usage.runs.length).toBeGreaterThan(0);
    const run = usage.runs.find((r: any) => r.endpoint === 'scrape');
    expect((await trawl.runResult(run.id)).endpoint).toBe('scrape');
  });

  test("errors carry the status and the server's message", async () => {
    const cases: Array<[() => Promise<unknown>, new (...args: any[]) => Error, number]> = [
      [() => new Trawl({ baseUrl: harness.env.url, apiKey: 'trawl_wrong' }).usage(), AuthenticationError, 401],
      [
        () => new Trawl({ baseUrl: harness.env.url, apiKey: harness.env.keys.broke }).scrape({ url: site('/a') }),
        InsufficientCreditsError,
        402,
      ],
      [
        () => new Trawl({ baseUrl: harness.env.url, apiKey: harness.env.keys.lapsed }).scrape({ url: site('/a') }),
        PermissionDeniedError,
        403,
      ],
      [() => trawl.getCrawl('00000000-0000-4000-8000-000000000000'), NotFoundError, 404],
      [() => trawl.scrape({ url: 'http://127.0.0.1:1/gone' }), UnprocessableError, 422],
    ];
    for (const [work, Class, status] of cases) {
      const error = await failure(work());
      expect(error).toBeInstanceOf(Class);
      expect(error.status).toBe(status);
      expect(error.message.length).toBeGreaterThan(3);
    }
    const limited = new Trawl({ baseUrl: harness.env.url, apiKey: harness.env.keys.limited, maxRetries: 0 });
    const outcomes = await Promise.allSettled([limited.usage(), limited.usage(), limited.usage()]);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(RateLimitError);
    expect(refused.reason.retryAfter).toBeGreaterThanOrEqual(0);
  });

  test('a 429 is retried after Retry-After', async () => {
    const flaky = new Trawl({ baseUrl: harness.env.flakyUrl, apiKey: harness.env.keys.main });
    const started = Date.now();
    expect((await flaky.scrape({ url: site('/a') })).markdown).toContain('Page a');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const error = await failure(new Trawl({ baseUrl: harness.env.flakyUrl, apiKey: harness.env.keys.main, maxRetries: 0 }).health());
    expect(error).toBeInstanceOf(RateLimitError);
  });

  test("a caller's signal aborts a call; signals combine also where AbortSignal.any is missing (Node 18)", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    // The fixture's /slow page takes 1.5 s: unaborted, the scrape would succeed.
    const error = await failure(trawl.call('POST /v1/scrape', [], { body: { url: site('/slow?abort') }, signal: controller.signal }));
    expect(error.name).toBe('AbortError');
    for (const combine of [anySignal, listenToAll]) {
      const [first, second] = [new AbortController(), new AbortController()];
      const combined = combine([first.signal, second.signal]);
      expect(combined.aborted).toBe(false);
      second.abort('second');
      expect([combined.aborted, combined.reason]).toEqual([true, 'second']);
      const early = new AbortController();
      early.abort('early');
      expect(combine([first.signal, early.signal]).reason).toBe('early');
    }
  });

  test('webhook verification', () => {
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    const now = Math.floor(Date.now() / 1000);
    const body = '{"type":"crawl.completed"}';
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(now),
      'webhook-signature': `v1,bogus ${signWebhook(secret, 'msg_1', now, body)}`,
    };
    expect(verifyWebhook(secret, body, headers)).toEqual({ type: 'crawl.completed' });
    expect(() => verifyWebhook(secret, `${body} `, headers)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(secret, body, { ...headers, 'webhook-timestamp': String(now - 3600) })).toThrow(WebhookVerificationError);
  });
});
