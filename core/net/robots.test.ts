/** robots.txt: Trawl's own group, Crawl-delay and its cap, Sitemap lines, RFC 9309 unavailability, the size cap, the cache and its TTL. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import pino from 'pino';
import { createHttpClient } from './http-client.ts';
import { startFixtureSite, type FixtureSite } from '../../test/helpers/fixture-site.ts';
import { testConfig } from '../../test/helpers/plugin-context.ts';
import { RobotsCache, ROBOTS_MAX_BYTES } from './robots.ts';

let site: FixtureSite;
let down: FixtureSite;
let changing = 'User-agent: *\nDisallow: /old/\n';
const http = createHttpClient(testConfig().fetch, pino({ level: 'silent' }));
const robots = (maxCrawlDelayMs = 30_000, ttlMs = 60_000) =>
  new RobotsCache(http, { userAgent: 'TrawlBot/0.1 (+self-hosted)', ttlMs, maxCrawlDelayMs });
const text = (body: string) => new Response(body, { headers: { 'content-type': 'text/plain' } });

beforeAll(() => {
  site = startFixtureSite({
    '/robots.txt': {
      body: 'User-agent: *\nDisallow: /\n\nUser-agent: TrawlBot\nDisallow: /private/\nCrawl-delay: 2\n\nSitemap: https://cdn.example/sitemap.xml\nSitemap: /local-sitemap.xml\nSitemap: ftp://nope.example/x\n',
      headers: { 'content-type': 'text/plain' },
    },
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

  test('Sitemap lines come back absolute, relative ones against robots.txt, other schemes dropped', async () => {
    expect((await robots().rulesFor(site.at('/'))).sitemaps).toEqual(['https://cdn.example/sitemap.xml', site.at('/local-sitemap.xml')]);
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

  test('after the TTL robots.txt is read again', async () => {
    const live = startFixtureSite({ '/robots.txt': () => text(changing) });
    try {
      const cache = robots(30_000, 50);
      expect((await cache.rulesFor(live.at('/'))).isAllowed(live.at('/old/x'))).toBe(false);
      changing = 'User-agent: *\nDisallow: /new/\n';
      expect((await cache.rulesFor(live.at('/'))).isAllowed(live.at('/old/x'))).toBe(false);
      await Bun.sleep(80);
      const fresh = await cache.rulesFor(live.at('/'));
      expect([fresh.isAllowed(live.at('/old/x')), fresh.isAllowed(live.at('/new/x'))]).toEqual([true, false]);
      expect(live.hits).toEqual(['/robots.txt', '/robots.txt']);
    } finally {
      await live.stop();
    }
  });

  test('no robots.txt (4xx) allows everything; 5xx and unreachable disallow everything', async () => {
    const cache = robots();
    const missing = startFixtureSite({});
    try {
      const rules = await cache.rulesFor(missing.at('/'));
      expect([rules.isAllowed(missing.at('/x')), rules.sitemaps]).toEqual([true, []]);
    } finally {
      await missing.stop();
    }
    const busy = await cache.rulesFor(down.at('/'));
    expect([busy.isAllowed(down.at('/x')), busy.unavailable]).toEqual([false, 'robots.txt answered HTTP 503']);
    const gone = startFixtureSite({});
    const origin = gone.at('/');
    await gone.stop();
    expect((await cache.rulesFor(origin)).isAllowed(origin)).toBe(false);
  });

  test(`a robots.txt over ${ROBOTS_MAX_BYTES} bytes is read from its first ${ROBOTS_MAX_BYTES} bytes (RFC 9309: at least 500 KiB)`, async () => {
    const head = 'User-agent: *\nDisallow: /secret/\nSitemap: /s.xml\n';
    // The cap falls in the middle of the /cut-in-half/ rule: it and everything after it are not read.
    const padding = `${'#'.repeat(ROBOTS_MAX_BYTES - 15 - head.length - 1)}\n`;
    const body = `${head}${padding}Disallow: /cut-in-half/\nDisallow: /after/\n${'# more\n'.repeat(50_000)}`;
    const huge = startFixtureSite({ '/robots.txt': () => text(body) });
    try {
      const rules = await robots().rulesFor(huge.at('/'));
      expect(rules.unavailable).toBeUndefined();
      const allowed = ['/secret/x', '/page', '/cut-in-half/x', '/after/x'].map((path) => rules.isAllowed(huge.at(path)));
      expect(allowed).toEqual([false, true, true, true]);
      expect(rules.sitemaps).toEqual([huge.at('/s.xml')]);
    } finally {
      await huge.stop();
    }
  });
});
