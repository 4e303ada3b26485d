// The official Firecrawl JS SDK (@mendable/firecrawl-js 4.x), unchanged but for `apiUrl`, against a
// real Trawl server, a fixture site, the SearXNG test server and the OpenAI-compatible test server:
// every method the /v2 routes serve, and the SDK's error paths (its thrown message is the body's `error`).
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import Firecrawl from '@mendable/firecrawl-js';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { lastUser, type Conversation } from '../servers/llm-answers.ts';
import { OPENAI_TEST_KEY, startOpenAiServer, type OpenAiServer } from '../servers/openai.ts';
import { startSearxngServer, type SearxngServer } from '../servers/searxng.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../servers/webhook-receiver.ts';

const KEY = 'v2-sdk-test-key';
const HMAC_SECRET = 'v2-webhook-hmac-secret';

const page = (
  title: string,
  body: string,
  links: string[] = [],
  extra = '',
) => `<!doctype html><html lang="en"><head><title>${title}</title>
<meta name="description" content="About ${title}"><meta property="og:site_name" content="Fixture">${extra}</head>
<body><nav><a href="/">Home</a></nav><main><h1>${title}</h1><p>${body}</p>
${links.map((href) => `<p><a href="${href}">to ${href}</a></p>`).join('\n')}
<img src="/img/${title.replace(/\W/g, '')}.png" alt="picture"></main><footer>Footer text</footer></body></html>`;

const SITE = {
  '/': page('Home page', 'Welcome to the fixture site, which has several pages to crawl.', [
    '/docs/intro',
    '/docs/guide',
    '/blog/post',
    '/missing',
  ]),
  '/docs/intro': page('Intro', 'The introduction explains what the product does for its users.', ['/docs/guide']),
  '/docs/guide': page('Guide', 'The guide walks through every step of the setup in detail.', ['/docs/intro', '/blog/post']),
  '/blog/post': page('Post', 'A blog post about the release, with notes on what changed.'),
  '/headers': (req: Request) =>
    new Response(
      page('Headers', `Token ${req.headers.get('x-token') ?? 'none'}, language ${req.headers.get('accept-language') ?? 'none'}`),
      { headers: { 'content-type': 'text/html' } },
    ),
  '/slow': { body: page('Slow', 'Slow page.'), delayMs: 3000 },
  '/gone': { body: page('Gone', 'This page is gone.'), status: 404 },
  // Linked from the home page, in a type no document plugin reads: a failed page.
  '/missing': { body: new Uint8Array([0, 1, 2, 3]), headers: { 'content-type': 'application/x-unknown' } },
  // Linked from nowhere: only the sitemap lists it.
  '/hidden/orphan': page('Orphan', 'A page that only the sitemap knows about.'),
  '/sitemap.xml': (req: Request) =>
    new Response(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${new URL(req.url).origin}/hidden/orphan</loc></url></urlset>`,
      { headers: { 'content-type': 'application/xml' } },
    ),
};

/** The test model: extraction reads the title from the page text; summaries are one fixed sentence. */
function model(conversation: Conversation): string {
  const text = lastUser(conversation);
  const properties = (conversation.schema?.properties ?? {}) as Record<string, unknown>;
  if ('summary' in properties) return JSON.stringify({ summary: `A short summary of ${/^Title: (.+)$/m.exec(text)?.[1] ?? 'the page'}.` });
  if ('fields' in properties)
    return JSON.stringify({ fields: [{ name: 'title', kind: 'string', description: 'The title', item_fields: [] }] });
  return JSON.stringify({ title: /^Title: (.+)$/m.exec(text)?.[1] ?? null });
}

let site: FixtureSite;
let searx: SearxngServer;
let openai: OpenAiServer;
let trawl: TestServer;
let bare: TestServer;
let app: Firecrawl;
let receiver: WebhookReceiver;

beforeAll(async () => {
  site = startFixtureSite(SITE);
  searx = startSearxngServer({
    results: () => [
      { url: site.at('/docs/intro'), title: 'Intro', snippet: 'The introduction' },
      { url: site.at('/blog/post'), title: 'Post', snippet: 'A post' },
    ],
  });
  openai = startOpenAiServer({ answer: model });
  receiver = startWebhookReceiver();
  trawl = await startTrawlServer({
    overrides: {
      apiKey: KEY,
      crawl: { perHostDelayMs: 0 },
      webhooks: { hmacSecret: HMAC_SECRET },
      plugins: {
        search: { searxng: { url: searx.url } },
        llm: { openai: { model: 'gpt-4o-mini', apiKey: OPENAI_TEST_KEY, baseUrl: `${openai.url}/v1` } },
      },
    },
  });
  bare = await startTrawlServer();
  app = new Firecrawl({ apiKey: KEY, apiUrl: trawl.url });
});

afterAll(async () => {
  await Promise.all([trawl.stop(), bare.stop()]);
  await Promise.all([site.stop(), searx.stop(), openai.stop(), receiver.stop()]);
});

/** The SDK's rejection, for its message, status and details. */
async function failure(promise: Promise<unknown>): Promise<{ message: string; status?: number; code?: string; details?: any }> {
  try {
    await promise;
  } catch (err) {
    return err as { message: string; status?: number };
  }
  throw new Error('expected the call to fail');
}

describe('scrape', () => {
  test('markdown by default, main content only, metadata with sourceURL as sent', async () => {
    const doc = await app.scrape(site.at('/docs/intro'));
    expect(doc.markdown).toContain('The introduction explains');
    expect(doc.markdown).not.toContain('Footer text');
    expect(doc.html).toBeUndefined();
    expect(doc.metadata).toMatchObject({
      title: 'Intro',
      description: 'About Intro',
      language: 'en',
      ogSiteName: 'Fixture',
      sourceURL: site.at('/docs/intro'),
      url: site.at('/docs/intro'),
      statusCode: 200,
    });
  });

  test('every format and option at once', async () => {
    const doc = await app.scrape(`${site.url}/headers`, {
      formats: [
        'markdown',
        'html',
        'rawHtml',
        'links',
        'images',
        { type: 'json', schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } },
        'summary',
      ],
      onlyMainContent: false,
      excludeTags: ['footer'],
      headers: { 'X-Token': 'abc123' },
      location: { languages: ['de-DE'] },
      timeout: 20_000,
      maxAge: 0,
      storeInCache: true,
    });
    expect(doc.markdown).toContain('Token abc123, language de-DE');
    expect(doc.markdown).toContain('Home');
    expect(doc.markdown).not.toContain('Footer text');
    expect(doc.html).toContain('<h1>Headers</h1>');
    expect(doc.html).not.toContain('<footer>');
    expect(doc.rawHtml).toContain('<footer>Footer text</footer>');
    expect(doc.links).toContain(site.at('/'));
    expect(doc.images).toEqual([site.at('/img/Headers.png')]);
    expect(doc.json).toEqual({ title: 'Headers' });
    expect(doc.summary).toBe('A short summary of Headers.');
    expect(doc.metadata?.sourceURL).toBe(`${site.url}/headers`);
  });

  test('json from a prompt alone (the schema is generated first); LLM formats on batch pages too', async () => {
    expect((await app.scrape(site.at('/docs/intro'), { formats: [{ type: 'json', prompt: 'The page title' }] })).json).toEqual({
      title: 'Intro',
    });
    const batch = await app.batchScrape([site.at('/blog/post')], { options: { formats: ['summary'] }, pollInterval: 1 });
    expect(batch.data.map((d) => d.summary)).toEqual(['A short summary of Post.']);
  });

  test('a 404 page is a successful scrape with its status', async () => {
    const doc = await app.scrape(site.at('/gone'));
    expect(doc.metadata).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  test('options this server does not carry out are accepted with a warning', async () => {
    const response = await trawl.post(
      '/v2/scrape',
      { url: site.at('/docs/intro'), blockAds: false, origin: 'js-sdk@4.42.0' },
      { authorization: `Bearer ${KEY}` },
    );
    expect(response.status).toBe(200);
    expect(response.body.warning).toBe('Not supported by this server and ignored: blockAds');
  });

  test('proxy: a value the operator mapped to no pool is a 400 the SDK reads, basic and auto work without one', async () => {
    const error = await failure(app.scrape(site.at('/docs/intro'), { proxy: 'stealth' }));
    expect(error.status).toBe(400);
    expect(error.message).toContain('proxy "stealth" is not configured on this server');
    for (const proxy of ['basic', 'auto'] as const) expect((await app.scrape(site.at('/docs/intro'), { proxy })).markdown).toBeDefined();
  });
});

describe("scrape errors read as Firecrawl's", () => {
  test('waitFor over half of timeout is a 400 with details', async () => {
    const error = await failure(app.scrape(site.at('/'), { waitFor: 6000, timeout: 10_000 }));
    expect(error.message).toBe('Invalid field waitFor: waitFor must not exceed half of timeout');
    expect(error.status).toBe(400);
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.details).toEqual([{ code: 'custom', path: ['waitFor'], message: 'waitFor must not exceed half of timeout' }]);
  });

  test('a wrong key is 401, an unknown format 400, a timeout 408', async () => {
    expect(await failure(new Firecrawl({ apiKey: 'wrong', apiUrl: trawl.url }).scrape(site.at('/')))).toMatchObject({
      status: 401,
      message: 'Invalid or missing API key',
    });
    expect(await failure(app.scrape(site.at('/'), { formats: ['bogus' as 'markdown'] }))).toMatchObject({
      status: 400,
      message: expect.stringContaining('unknown format "bogus"'),
    });
    expect(await failure(app.scrape(site.at('/slow'), { timeout: 1000 }))).toMatchObject({
      status: 408,
      code: 'SCRAPE_TIMEOUT',
      message: 'Scrape timed out after 1000 ms',
    });
  });

  test('json and summary without a language model are a clear 400', async () => {
    const local = new Firecrawl({ apiKey: '', apiUrl: bare.url });
    const json = await failure(local.scrape(site.at('/'), { formats: [{ type: 'json', prompt: 'the title' }] }));
    expect(json).toMatchObject({ status: 400, message: expect.stringContaining('Format "extract" needs a language model') });
    expect(await failure(local.scrape(site.at('/'), { formats: ['summary'] }))).toMatchObject({
      status: 400,
      message: expect.stringContaining('needs a language model'),
    });
  });
});

describe('crawl', () => {
  test('the waiter returns every page, staying below the start path and matching includePaths as regexes', async () => {
    const job = await app.crawl(site.at('/docs/intro'), { limit: 10, pollInterval: 1, scrapeOptions: { formats: ['markdown'] } });
    expect(job.status).toBe('completed');
    // Below /docs/intro only: the guide it links to is elsewhere.
    expect(job.data.map((d) => d.metadata?.sourceURL)).toEqual([site.at('/docs/intro')]);
    const whole = await app.crawl(site.at('/'), { limit: 10, pollInterval: 1, includePaths: ['^/docs/'], crawlEntireDomain: true });
    expect(whole.status).toBe('completed');
    expect(whole.data.map((d) => d.metadata?.sourceURL).sort()).toEqual([site.at('/'), site.at('/docs/guide'), site.at('/docs/intro')]);
    expect(whole.completed).toBe(3);
    expect(whole.total).toBe(3);
    // The sitemap seeds a crawl unless told to skip it.
    const seeded = await app.crawl(site.at('/'), {
      limit: 10,
      pollInterval: 1,
      crawlEntireDomain: true,
      includePaths: ['^/$', '^/hidden/'],
    });
    expect(seeded.data.map((d) => d.metadata?.sourceURL).sort()).toEqual([site.at('/'), site.at('/hidden/orphan')]);
    const skipped = await app.crawl(site.at('/'), {
      limit: 10,
      pollInterval: 1,
      crawlEntireDomain: true,
      includePaths: ['^/$', '^/hidden/'],
      sitemap: 'skip',
    });
    expect(skipped.data.map((d) => d.metadata?.sourceURL)).toEqual([site.at('/')]);
  });

  test('startCrawl, status with and without auto-pagination, errors, cancel, active crawls', async () => {
    const started = await app.startCrawl(site.at('/'), {
      limit: 10,
      crawlEntireDomain: true,
      maxDiscoveryDepth: 1,
      scrapeOptions: { formats: ['markdown', 'links'] },
    });
    expect(started.url).toBe(`${trawl.url}/v2/crawl/${started.id}`);
    let status = await app.getCrawlStatus(started.id);
    for (let i = 0; i < 100 && status.status === 'scraping'; i++) {
      await Bun.sleep(100);
      status = await app.getCrawlStatus(started.id);
    }
    expect(status.status).toBe('completed');
    // The start page's links and, by default, what the sitemap lists.
    expect(status.data.map((d) => d.metadata?.sourceURL).sort()).toEqual(
      ['/', '/blog/post', '/docs/guide', '/docs/intro', '/hidden/orphan'].map((p) => site.at(p)),
    );
    expect(status.next).toBeNull();
    expect(status.data.every((d) => Array.isArray(d.links))).toBe(true);
    // Pages of one document: the SDK follows `next` by itself unless told not to.
    const first = await app.getCrawlStatus(started.id, { autoPaginate: false });
    expect(first.data).toHaveLength(5);
    expect(first.next).toBeNull();
    // The link to /missing answers a type Trawl cannot read: a failed page, listed by its reason.
    const errors = await app.getCrawlErrors(started.id);
    expect(errors.errors).toEqual([
      {
        id: expect.stringMatching(new RegExp(`^${started.id}-`)),
        url: site.at('/missing'),
        error: 'Unsupported content type: application/x-unknown',
      },
    ]);
    expect(errors.robotsBlocked).toEqual([]);
    // A crawl that already ended cannot be cancelled (409); one just started can.
    expect(await failure(app.cancelCrawl(started.id))).toMatchObject({ status: 409, message: 'Crawl is already completed' });
    // Its one page answers after 3 s: still running when cancelled.
    const running = await app.startCrawl(site.at('/slow'), { limit: 10 });
    const active = await app.getActiveCrawls();
    expect(active.crawls.map((c) => c.id)).toContain(running.id);
    expect(active.crawls.find((c) => c.id === running.id)).toMatchObject({ url: site.at('/slow'), teamId: 'default' });
    expect(
      (await trawl.get('/v2/crawl/ongoing', { authorization: `Bearer ${KEY}` })).body.crawls.map((c: { id: string }) => c.id),
    ).toContain(running.id);
    expect(await app.cancelCrawl(running.id)).toBe(true);
    expect(await app.cancelCrawl(running.id)).toBe(true);
    expect((await app.getCrawlStatus(running.id)).status).toBe('cancelled');
    expect((await app.getActiveCrawls()).crawls.map((c) => c.id)).not.toContain(running.id);
  });

  test('excludePaths win over includePaths; failed pages are not documents', async () => {
    const job = await app.crawl(site.at('/'), {
      limit: 10,
      crawlEntireDomain: true,
      includePaths: ['^/$', 'missing', 'blog'],
      excludePaths: ['post$'],
      pollInterval: 1,
    });
    expect(job.data.map((d) => d.metadata?.sourceURL)).toEqual([site.at('/')]);
    expect(job.total).toBe(1);
    expect((await app.getCrawlErrors(job.id)).errors.map((e) => e.url)).toEqual([site.at('/missing')]);
  });

  test('unknown and malformed ids', async () => {
    expect(await failure(app.getCrawlStatus(crypto.randomUUID()))).toMatchObject({
      status: 404,
      message: expect.stringContaining('not found'),
    });
    expect(await failure(app.getCrawlErrors('invalid-job-id-12345'))).toMatchObject({
      status: 400,
      message: 'Invalid job ID format. Job ID must be a valid UUID.',
    });
    expect(await failure(app.cancelCrawl(crypto.randomUUID()))).toMatchObject({ status: 404 });
    expect(await failure(app.crawl(site.at('/'), { includePaths: ['(?=x)'] }))).toMatchObject({
      status: 400,
      message: expect.stringContaining('Invalid field includePaths[0]: invalid regular expression'),
    });
  });
});

describe('batch scrape', () => {
  test('the waiter returns every page; invalid URLs are set aside', async () => {
    const started = await app.startBatchScrape([site.at('/docs/intro'), 'not a url', site.at('/blog/post')], {
      options: { formats: ['markdown', 'links'] },
    });
    expect(started.invalidURLs).toEqual(['not a url']);
    const job = await app.batchScrape([site.at('/docs/intro'), site.at('/blog/post')], { options: { formats: ['html'] }, pollInterval: 1 });
    expect(job.status).toBe('completed');
    expect(job.data.map((d) => d.metadata?.sourceURL).sort()).toEqual([site.at('/blog/post'), site.at('/docs/intro')]);
    expect(job.data.every((d) => typeof d.html === 'string' && d.markdown === undefined)).toBe(true);
    expect(await app.cancelBatchScrape(started.id).catch((e) => e.status)).toBeOneOf([true, 409]);
    expect((await app.getBatchScrapeErrors(job.id)).errors).toEqual([]);
    expect(await failure(app.startBatchScrape(['not a url'], {}))).toMatchObject({
      status: 400,
      message: 'Invalid field urls: No valid URLs provided',
    });
  });
});

describe('map and search', () => {
  test('map lists the site with titles', async () => {
    const map = await app.map(site.at('/'), { limit: 10 });
    expect(map.links.map((l) => l.url)).toEqual(expect.arrayContaining([site.at('/'), site.at('/docs/intro'), site.at('/blog/post')]));
    expect(map.links.find((l) => l.url === site.at('/'))?.title).toBe('Home page');
    const searched = await app.map(site.at('/'), { search: 'docs', limit: 10 });
    expect(searched.links.map((l) => l.url).sort()).toEqual([site.at('/docs/guide'), site.at('/docs/intro')]);
  });

  test('search answers web results, scraped when formats are asked for', async () => {
    const plain = await app.search('fixture pages', { limit: 5 });
    expect(plain.web).toEqual([
      { url: site.at('/docs/intro'), title: 'Intro', description: 'The introduction', position: 1 },
      { url: site.at('/blog/post'), title: 'Post', description: 'A post', position: 2 },
    ]);
    const scraped = await app.search('fixture pages', { limit: 1, scrapeOptions: { formats: ['markdown'] } });
    expect(scraped.web).toHaveLength(1);
    expect(scraped.web![0]).toMatchObject({
      url: site.at('/docs/intro'),
      title: 'Intro',
      markdown: expect.stringContaining('The introduction explains'),
    });
    expect(await failure(new Firecrawl({ apiKey: '', apiUrl: bare.url }).search('anything'))).toMatchObject({
      status: 503,
      message: expect.stringContaining('No search provider is configured'),
    });
  });
});

describe('webhooks', () => {
  const signed = (delivery: { body: string; headers: Record<string, string> }) =>
    delivery.headers['x-firecrawl-signature'] === `sha256=${createHmac('sha256', HMAC_SECRET).update(delivery.body).digest('hex')}`;

  test("a crawl's webhook gets started, every page and completed in Firecrawl's shape, signed; registered webhooks still get Trawl's event", async () => {
    const registered = await trawl.post(
      '/v1/webhooks',
      { url: receiver.url('/trawl'), events: ['crawl.completed'] },
      { authorization: `Bearer ${KEY}` },
    );
    receiver.setSecret('/trawl', registered.body.secret);
    const job = await app.crawl(site.at('/docs/intro'), {
      limit: 5,
      crawlEntireDomain: true,
      includePaths: ['^/docs/'],
      pollInterval: 1,
      webhook: {
        url: receiver.url('/fc'),
        headers: { 'X-Custom': 'yes' },
        metadata: { project: 'p1' },
        events: ['started', 'page', 'completed'],
      },
    });
    const deliveries = await receiver.waitFor(4, '/fc');
    expect(deliveries.every(signed)).toBe(true);
    expect(deliveries.every((d) => d.headers['x-custom'] === 'yes')).toBe(true);
    const byType = (type: string) => deliveries.filter((d) => d.payload.type === type).map((d) => d.payload);
    expect(byType('crawl.started')).toEqual([
      { success: true, type: 'crawl.started', id: job.id, webhookId: expect.any(String), data: [], metadata: { project: 'p1' } },
    ]);
    expect(
      byType('crawl.page')
        .map((p) => p.data[0].metadata.sourceURL)
        .sort(),
    ).toEqual([site.at('/docs/guide'), site.at('/docs/intro')]);
    expect(byType('crawl.page').every((p) => p.success && p.id === job.id && typeof p.data[0].markdown === 'string')).toBe(true);
    expect(deliveries).toHaveLength(4);
    expect(byType('crawl.completed')).toEqual([
      { success: true, type: 'crawl.completed', id: job.id, webhookId: expect.any(String), data: [], metadata: { project: 'p1' } },
    ]);
    const [trawlEvent] = await receiver.waitFor(1, '/trawl');
    expect(trawlEvent).toMatchObject({ verified: true, payload: { type: 'crawl.completed', data: { id: job.id, status: 'completed' } } });
  });

  test("a batch's webhook by bare URL gets every event, a failed page with its error", async () => {
    const job = await app.batchScrape([site.at('/blog/post'), site.at('/missing')], { webhook: receiver.url('/batch'), pollInterval: 1 });
    const deliveries = await receiver.waitFor(4, '/batch');
    const types = deliveries.map((d) => d.payload.type);
    expect(types.filter((t) => t === 'batch_scrape.page')).toHaveLength(2);
    expect(types).toContain('batch_scrape.started');
    expect(types).toContain('batch_scrape.completed');
    const failed = deliveries.find((d) => d.payload.type === 'batch_scrape.page' && !d.payload.success)!.payload;
    expect(failed).toMatchObject({ id: job.id, data: [], error: 'Unsupported content type: application/x-unknown', metadata: {} });
  });

  test('a webhook the SSRF guard would refuse is a 400 before anything starts', async () => {
    const guarded = await startTrawlServer({ overrides: { fetch: { allowPrivateNetwork: false } } });
    try {
      const error = await failure(
        new Firecrawl({ apiKey: '', apiUrl: guarded.url }).startCrawl('https://example.com/', { webhook: 'http://127.0.0.1:9/hook' }),
      );
      expect(error).toMatchObject({ status: 400, message: expect.stringContaining('Invalid field webhook:') });
    } finally {
      await guarded.stop();
    }
  });
});

describe('watcher', () => {
  /** Runs a watcher to its end: the documents it emitted and how it ended. */
  async function watch(id: string, kind: 'crawl' | 'batch') {
    const watcher = app.watcher(id, { kind, pollInterval: 1, timeout: 30 });
    const documents: any[] = [];
    let end: any = null;
    watcher.on('document', (doc) => documents.push(doc));
    watcher.on('done', (state) => {
      end = { done: state };
    });
    watcher.on('error', (state) => {
      end = { error: state };
    });
    await watcher.start();
    return { documents, end };
  }

  test('a crawl streams every document over the WebSocket, then done', async () => {
    const started = await app.startCrawl(site.at('/'), { limit: 10, crawlEntireDomain: true });
    const { documents, end } = await watch(started.id, 'crawl');
    expect(documents.map((d) => d.metadata.sourceURL).sort()).toEqual(
      ['/', '/blog/post', '/docs/guide', '/docs/intro', '/hidden/orphan'].map((p) => site.at(p)),
    );
    // The socket closes after the last document; the SDK then reads the status, so `done` carries them all.
    expect(end.done).toMatchObject({ status: 'completed', id: started.id, total: 5, completed: 5, creditsUsed: 6 });
    expect(end.done.data.map((d: any) => d.metadata.sourceURL).sort()).toEqual(documents.map((d) => d.metadata.sourceURL).sort());
  });

  test('a finished batch replays its documents; a cancelled one ends cancelled; an unknown id is an error', async () => {
    const finished = await app.batchScrape([site.at('/docs/intro')], { pollInterval: 1 });
    const replay = await watch(finished.id, 'batch');
    expect(replay.documents.map((d) => d.metadata.sourceURL)).toEqual([site.at('/docs/intro')]);
    expect(replay.end.done.status).toBe('completed');
    const slow = await app.startBatchScrape([site.at('/slow')]);
    const watching = watch(slow.id, 'batch');
    await Bun.sleep(200);
    expect(await app.cancelBatchScrape(slow.id)).toBe(true);
    const cancelled = await watching;
    expect(cancelled.end.done).toMatchObject({ status: 'cancelled', id: slow.id });
    const unknown = await watch(crypto.randomUUID(), 'crawl');
    expect(unknown.end.error).toMatchObject({ status: 'failed', error: expect.stringContaining('not found') });
  });

  test('the socket needs the API key (sent as the sub-protocol)', async () => {
    const started = await app.startBatchScrape([site.at('/docs/intro')]);
    const stranger = new Firecrawl({ apiKey: 'not-the-key', apiUrl: trawl.url }).watcher(started.id, { kind: 'batch' });
    let error: any = null;
    stranger.on('error', (state) => {
      error = state;
    });
    await stranger.start();
    expect(error).toMatchObject({ error: 'WebSocket error' });
  });
});
