// The official Firecrawl SDK's `watcher()` against a real Trawl server, on SQLite and on Postgres (when
// TEST_DATABASE_URL is set): every finished page of a crawl or batch is emitted exactly once — the ones
// that finished before the socket opened too — `done` comes after the last one and carries them all
// (as the SDK's polling fallback does), and a run with more documents than one status page loses none.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import Firecrawl from '@mendable/firecrawl-js';
import type { Storage } from '../../core/services.ts';
import { testDatabases } from '../helpers/databases.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

// Runs take a second or two; the margin is for a loaded machine.
setDefaultTimeout(30_000);

const KEY = 'v2-sdk-watcher-key';
/** Scraped afresh each time: a cached page would answer at once, before the socket opens. */
const FRESH = { formats: ['markdown' as const], maxAge: 0 };
/** More pages than one status page (100), so a replay has to cross page boundaries. */
const MANY = 105;

const html = (title: string, links: string[] = []) => `<!doctype html><html><head><title>${title}</title></head>
<body><main><h1>${title}</h1><p>Text of ${title}.</p>${links.map((href) => `<a href="${href}">${href}</a>`).join(' ')}</main></body></html>`;

const paths = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}/${i + 1}`);
const SMALL = paths('/small', 2);
const STAGGERED = paths('/staggered', 11);
const BULK = paths('/bulk', MANY);

/**
 * Each crawl's start page links to its pages. Their answers are staggered (the i-th after i × a step), so
 * a watcher opened once a few pages are done sees the rest finish while it listens.
 */
function siteRoutes() {
  const routes: Record<string, Parameters<typeof startFixtureSite>[0][string]> = {
    '/small': html('Small', SMALL),
    '/staggered': html('Staggered', STAGGERED),
  };
  for (const [list, step] of [
    [SMALL, 200],
    [STAGGERED, 60],
  ] as const)
    list.forEach((path, i) => {
      routes[path] = { body: html(path), delayMs: (i + 1) * step };
    });
  for (const path of BULK) routes[path] = html(path);
  return routes;
}

interface Watched {
  /** `document` and `done` in the order the SDK emitted them. */
  events: string[];
  urls: string[];
  done: any;
  error: any;
}

/** What the server sent on a socket of its own, opened beside the SDK's. */
interface Wire {
  /** The counts of the `catchup` message, sent while the run goes on. */
  catchup: { completed: number } | null;
  types: string[];
  urls: string[];
  closeCode: number;
}

/** Runs the SDK's watcher to its end (after the server's close it reads the HTTP status, as against Firecrawl). */
async function sdkWatch(app: Firecrawl, id: string, kind: 'crawl' | 'batch'): Promise<Watched> {
  const watcher = app.watcher(id, { kind, pollInterval: 1, timeout: 30 });
  const seen: Watched = { events: [], urls: [], done: null, error: null };
  watcher.on('document', (doc) => {
    seen.events.push('document');
    seen.urls.push(doc.metadata.sourceURL);
  });
  watcher.on('done', (state) => {
    seen.events.push('done');
    seen.done = state;
  });
  watcher.on('error', (state) => {
    seen.error = state;
  });
  await watcher.start();
  return seen;
}

/** The messages on the same WebSocket the SDK opens, to the close. */
function wireWatch(url: string): Promise<Wire> {
  const wire: Wire = { catchup: null, types: [], urls: [], closeCode: 0 };
  const socket = new WebSocket(url, KEY);
  socket.onmessage = (ev) => {
    const message = JSON.parse(String(ev.data));
    wire.types.push(message.type);
    if (message.type === 'catchup') wire.catchup ??= message.data;
    if (message.type === 'document') wire.urls.push(message.data.metadata.sourceURL);
  };
  return new Promise((resolve) => {
    socket.onclose = (ev) => {
      wire.closeCode = ev.code;
      resolve(wire);
    };
  });
}

/**
 * The SDK emitted exactly these URLs, each once, then `done` last with every one of them in its data;
 * the socket itself carried each of them once, then closed.
 */
function expectAll({ sdk, wire }: { sdk: Watched; wire: Wire }, urls: string[]): void {
  const sorted = [...urls].sort();
  expect(sdk.error).toBeNull();
  expect([...sdk.urls].sort()).toEqual(sorted);
  expect(sdk.events.indexOf('done')).toBe(urls.length);
  expect(sdk.events).toHaveLength(urls.length + 1);
  expect(sdk.done.status).toBe('completed');
  expect(sdk.done.completed).toBe(urls.length);
  expect(sdk.done.data.map((doc: any) => doc.metadata.sourceURL).sort()).toEqual(sorted);
  expect([...wire.urls].sort()).toEqual(sorted);
  // No `done` message: the JS SDK would end with only that message's documents (server/routes/v2/crawl-watcher-socket.ts).
  expect(wire.types.filter((type) => type !== 'catchup' && type !== 'document')).toEqual([]);
  expect(wire.closeCode).toBe(1000);
}

for (const database of testDatabases()) {
  describe(`watcher on ${database.name}`, () => {
    let site: FixtureSite;
    let storage: Storage;
    let trawl: TestServer;
    let app: Firecrawl;
    const at = (list: string[]) => list.map((path) => site.at(path));
    /** The SDK's watcher and a socket of the test's own, opened together. */
    const watch = async (id: string, kind: 'crawl' | 'batch') => {
      const path = `${kind === 'crawl' ? '/v2/crawl' : '/v2/batch/scrape'}/${id}`;
      const [sdk, wire] = await Promise.all([sdkWatch(app, id, kind), wireWatch(`${trawl.url.replace(/^http/, 'ws')}${path}`)]);
      return { sdk, wire };
    };

    beforeAll(async () => {
      site = startFixtureSite(siteRoutes());
      storage = await database.open();
      trawl = await startTrawlServer({
        storage,
        overrides: { apiKey: KEY, crawl: { perHostDelayMs: 0, concurrency: 8, perHostConcurrency: 8 } },
      });
      app = new Firecrawl({ apiKey: KEY, apiUrl: trawl.url });
    });

    afterAll(async () => {
      await trawl.stop();
      await storage.close();
      await site.stop();
    });

    /** Until `count` pages of the run are done (read without the SDK's auto-pagination). */
    async function finished(id: string, kind: 'crawl' | 'batch', count: number): Promise<void> {
      const status = () =>
        kind === 'crawl' ? app.getCrawlStatus(id, { autoPaginate: false }) : app.getBatchScrapeStatus(id, { autoPaginate: false });
      for (let i = 0; i < 200 && (await status()).completed < count; i++) await Bun.sleep(10);
    }

    /** Watched once `before` pages are done: those come before the socket opened, the rest after. */
    async function watchedWhileRunning(id: string, kind: 'crawl' | 'batch', urls: string[], before: number) {
      await finished(id, kind, before);
      const watched = await watch(id, kind);
      expect(watched.wire.catchup?.completed).toBeGreaterThanOrEqual(before);
      expect(watched.wire.catchup?.completed).toBeLessThan(urls.length);
      expectAll(watched, urls);
    }

    const startCrawl = (path: string) =>
      app.startCrawl(site.at(path), { limit: 200, crawlEntireDomain: true, sitemap: 'skip', scrapeOptions: FRESH });

    test('a 3-page crawl watched from its start and once its first page is done: each page once, then done', async () => {
      expectAll(await watch((await startCrawl('/small')).id, 'crawl'), at(['/small', ...SMALL]));
      await watchedWhileRunning((await startCrawl('/small')).id, 'crawl', at(['/small', ...SMALL]), 1);
    });

    test('a 12-page crawl watched while it runs, then watched again once it is over', async () => {
      const { id } = await startCrawl('/staggered');
      await watchedWhileRunning(id, 'crawl', at(['/staggered', ...STAGGERED]), 3);
      // Opened after the end: the whole run is replayed, then done.
      expectAll(await watch(id, 'crawl'), at(['/staggered', ...STAGGERED]));
    });

    test('a batch scrape watched while it runs and after it ended', async () => {
      const urls = at(STAGGERED);
      const { id } = await app.startBatchScrape(urls, { options: FRESH });
      await watchedWhileRunning(id, 'batch', urls, 2);
      expectAll(await watch(id, 'batch'), urls);
    });

    test(`a batch of ${MANY} pages (more than one status page), watched from the start and replayed`, async () => {
      const urls = at(BULK);
      const { id } = await app.startBatchScrape(urls, { options: FRESH });
      expectAll(await watch(id, 'batch'), urls);
      expectAll(await watch(id, 'batch'), urls);
    });
  });
}
