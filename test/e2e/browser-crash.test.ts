/**
 * End to end with real Chromium: the browser process killed in the middle of a scrape. The scrape
 * in flight gets a clear 422, the server stays up, and the next scrape runs on a new browser;
 * shutting the server down ends the browser process.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { eventually, processAlive, requireChromium } from '../../core/browser/testing.ts';
import { Tokens } from '../../core/tokens.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

let site: FixtureSite;
let server: TestServer;

beforeAll(async () => {
  requireChromium();
  site = startFixtureSite({ '/page': '<html><head><title>Lighthouse</title></head><body><p>The lamp is lit.</p></body></html>' });
  server = await startTrawlServer({ overrides: { storage: { cacheTtlSeconds: 0 } } });
});
afterAll(async () => {
  await server?.stop();
  await site?.stop();
});

test('killing the browser mid-run: that scrape fails clearly, later scrapes succeed', async () => {
  const pool = server.trawl.container.resolve(Tokens.Browser);
  expect((await server.post('/v1/scrape', { url: site.at('/page'), render: true })).status).toBe(200);
  const pid = pool.stats().pid!;
  const hits = site.hits.length;
  const inflight = server.post('/v1/scrape', { url: site.at('/page'), actions: [{ type: 'wait', ms: 20_000 }] });
  expect(await eventually(() => site.hits.length > hits)).toBe(true); // the page is open in the browser
  process.kill(pid, 'SIGKILL');
  const res = await inflight;
  expect(res.status).toBe(422);
  expect(res.body).toEqual({
    error: 'Failed to fetch URL: the browser closed unexpectedly while rendering the page (it is restarted for the next request)',
  });
  const next = await server.post('/v1/scrape', { url: site.at('/page'), render: true, formats: ['text'] });
  expect(next.status).toBe(200);
  expect(next.body.text).toBe('The lamp is lit.');
  expect(pool.stats()).toMatchObject({ launches: 2, activeContexts: 0 });
  expect(pool.stats().pid).not.toBe(pid);
});

test('shutting the server down ends the browser process', async () => {
  const other = await startTrawlServer();
  expect((await other.post('/v1/scrape', { url: site.at('/page'), render: true })).status).toBe(200);
  const pid = other.trawl.container.resolve(Tokens.Browser).stats().pid!;
  expect(processAlive(pid)).toBe(true);
  await other.stop();
  expect(await eventually(() => !processAlive(pid))).toBe(true);
});
