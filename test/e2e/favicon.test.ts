/**
 * `metadata.favicon` is a URL that answers, or null: a declared icon is kept as the page states it;
 * a page declaring none gets its origin's `/favicon.ico` only once a check through the guarded
 * client saw an image there (a 404, or an HTML "not found" page served with 200, is no icon), the
 * check is made once per origin, and a slow icon server costs a scrape at most `scrape.faviconBudgetMs`.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const ICO = new Uint8Array([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0, 0]);
const PAGE = '<!doctype html><html><head><title>Harbour</title></head><body><p>Tides and boats.</p></body></html>';
const BUDGET_MS = 300;

let server: TestServer;
const sites: FixtureSite[] = [];
const site = (routes: Parameters<typeof startFixtureSite>[0]) => {
  const started = startFixtureSite({ '/': PAGE, '/two': PAGE, ...routes });
  sites.push(started);
  return started;
};
const favicon = async (url: string) => {
  const res = await server.post('/v1/scrape', { url, no_cache: true });
  expect(res.status).toBe(200);
  return res.body.metadata.favicon as string | null;
};

beforeAll(async () => {
  server = await startTrawlServer({ overrides: { scrape: { faviconBudgetMs: BUDGET_MS } } });
});
afterAll(async () => {
  await server.stop();
  await Promise.all(sites.map((s) => s.stop()));
});

test('an origin whose /favicon.ico is an image: that URL, checked once for all its pages', async () => {
  const icons = site({ '/favicon.ico': { body: ICO, headers: { 'content-type': 'image/x-icon' } } });
  expect(await favicon(icons.at('/'))).toBe(icons.at('/favicon.ico'));
  expect(await favicon(icons.at('/two'))).toBe(icons.at('/favicon.ico'));
  expect(icons.hits.filter((path) => path === '/favicon.ico').length).toBe(1);
  // Served with a wrong media type, the bytes still say it is an icon.
  const mislabelled = site({ '/favicon.ico': { body: ICO, headers: { 'content-type': 'application/octet-stream' } } });
  expect(await favicon(mislabelled.at('/'))).toBe(mislabelled.at('/favicon.ico'));
});

test('no icon at the origin (404, or an HTML page with 200): null', async () => {
  expect(await favicon(site({}).at('/'))).toBeNull();
  expect(await favicon(site({ '/favicon.ico': '<html><body>Page not found</body></html>' }).at('/'))).toBeNull();
});

test('a declared icon is kept as the page states it, without a request', async () => {
  const declared = site({ '/': PAGE.replace('</title>', '</title><link rel="icon" href="/static/mark.svg">') });
  expect(await favicon(declared.at('/'))).toBe(declared.at('/static/mark.svg'));
  expect(declared.hits).toEqual(['/']);
});

test("a slow icon server costs a scrape at most the budget; the check then serves the origin's next pages", async () => {
  const slow = site({ '/favicon.ico': { body: ICO, headers: { 'content-type': 'image/x-icon' }, delayMs: 1500 } });
  const started = performance.now();
  expect(await favicon(slow.at('/'))).toBeNull();
  expect(performance.now() - started).toBeLessThan(1200);
  await Bun.sleep(1600);
  expect(await favicon(slow.at('/two'))).toBe(slow.at('/favicon.ico'));
  expect(slow.hits.filter((path) => path === '/favicon.ico').length).toBe(1);
});
