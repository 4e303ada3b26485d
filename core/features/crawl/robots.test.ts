/** robots.txt rules for Trawl's token, Crawl-delay, RFC 9309 unavailability; per-host politeness gate. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import pino from 'pino';
import { createHttpClient } from '../../net/http-client.ts';
import { startFixtureSite, type FixtureSite } from '../../../test/helpers/fixture-site.ts';
import { testConfig } from '../../../test/helpers/plugin-context.ts';
import { HostGate } from './gate.ts';
import { RobotsCache } from './robots.ts';

let site: FixtureSite;
let down: FixtureSite;
const http = createHttpClient(testConfig().fetch, pino({ level: 'silent' }));
const robots = (maxCrawlDelayMs = 30_000) => new RobotsCache(http, { userAgent: 'TrawlBot/0.1 (+self-hosted)', ttlMs: 60_000, maxCrawlDelayMs });

beforeAll(() => {
  site = startFixtureSite({
    '/robots.txt': { body: 'User-agent: *\nDisallow: /\n\nUser-agent: TrawlBot\nDisallow: /private/\nCrawl-delay: 2\n', headers: { 'content-type': 'text/plain' } },
  });
  down = startFixtureSite({ '/robots.txt': { status: 503, body: 'busy' } });
});
afterAll(async () => {
  await Promise.all([site.stop(), down.stop()]);
});

describe('robots.txt', () => {
  test("Trawl's own group applies, not the catch-all; Crawl-delay becomes milliseconds", async () => {
    const rules = await robots().rulesFor(site.at('/any'));
    expect(rules.isAllowed(site.at('/docs/a'))).toBe(true);
    expect(rules.isAllowed(site.at('/private/a'))).toBe(false);
    expect(rules.crawlDelayMs).toBe(2000);
  });

  test('Crawl-delay is capped', async () => {
    expect((await robots(500).rulesFor(site.at('/'))).crawlDelayMs).toBe(500);
  });

  test('concurrent callers share one fetch, and the answer is cached', async () => {
    const cache = robots();
    const before = site.hits.length;
    await Promise.all([cache.rulesFor(site.at('/a')), cache.rulesFor(site.at('/b')), cache.rulesFor(site.at('/c'))]);
    await cache.rulesFor(site.at('/d'));
    expect(site.hits.length - before).toBe(1);
  });

  test('no robots.txt (4xx) allows everything; 5xx and unreachable disallow everything', async () => {
    const cache = robots();
    const missing = startFixtureSite({});
    try {
      expect((await cache.rulesFor(missing.at('/'))).isAllowed(missing.at('/x'))).toBe(true);
    } finally {
      await missing.stop();
    }
    expect((await cache.rulesFor(down.at('/'))).isAllowed(down.at('/x'))).toBe(false);
    const gone = startFixtureSite({});
    const origin = gone.at('/');
    await gone.stop();
    expect((await cache.rulesFor(origin)).isAllowed(origin)).toBe(false);
  });
});

describe('host gate', () => {
  test('at most perHost fetches of a host at once; the next one starts when one ends', async () => {
    const gate = new HostGate(2, 0);
    const first = await gate.acquire('a.test', 0);
    await gate.acquire('a.test', 0);
    expect(gate.busyHosts()).toEqual(['a.test']);
    let third = false;
    const pending = gate.acquire('a.test', 0).then((release) => { third = true; return release; });
    const other = await gate.acquire('b.test', 0);
    await Bun.sleep(20);
    expect(third).toBe(false);
    first();
    (await pending)();
    expect(third).toBe(true);
    other();
  });

  test('a delay holds the host busy after a start, and a waiter can be aborted', async () => {
    let freed = 0;
    const gate = new HostGate(4, 0, () => freed++);
    const release = await gate.acquire('slow.test', 60_000);
    release();
    expect(freed).toBe(1);
    expect(gate.busyHosts()).toEqual(['slow.test']);
    const controller = new AbortController();
    const waiting = gate.acquire('slow.test', 60_000, controller.signal);
    controller.abort(new Error('shutting down'));
    await expect(waiting).rejects.toThrow('shutting down');
  });
});
