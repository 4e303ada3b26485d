/**
 * POST /v1/map end to end: robots.txt Sitemap lines, /sitemap.xml, sitemap indexes with loops,
 * gzip sitemaps, RSS/Atom feeds, start-page links with titles, search, limit, include_subdomains,
 * (the `sitemap` modes, the path filter and the stored result: map-options.test.ts),
 * validation, fetch failures, and hostile sitemaps (oversized, gzip bomb, entity bomb, too many,
 * too deep, too slow) that must stay bounded, and a start page read through the pipeline (a DOCX).
 * Host names reach the fixtures through fetch.resolve.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { startMapSite } from '../fixtures/map-site.ts';
import { handbookDocx } from '../../plugins/document/docx/fixtures/samples.ts';

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

let site: FixtureSite;
let files: FixtureSite;
let trawl: TestServer;
let strict: TestServer;
let noFeeds: TestServer;
const HOSTS = ['site.test', 'blog.site.test', 'other.test', 'hostile.test', 'deep.test', 'slow.test', 'ferries.example'];

beforeAll(async () => {
  site = startMapSite();
  files = startFixtureSite({ '/files/handbook.docx': { body: await handbookDocx(), headers: { 'content-type': DOCX_TYPE } } });
  const resolve = Object.fromEntries(HOSTS.map((h) => [h, '127.0.0.1']));
  trawl = await startTrawlServer({
    overrides: { fetch: { resolve }, map: { maxSitemaps: 8, maxSitemapBytes: 300_000, maxSitemapDepth: 2, timeoutMs: 1500 } },
  });
  strict = await startTrawlServer({ overrides: { fetch: { allowPrivateNetwork: false } } });
  noFeeds = await startTrawlServer({ overrides: { fetch: { resolve }, plugins: { format: { attributes: false } } } });
});
afterAll(async () => {
  await Promise.all([trawl.stop(), strict.stop(), noFeeds.stop(), site.stop(), files.stop()]);
});

const origin = (host: string) => `http://${host}:${site.port}`;
const O = () => origin('site.test');
const hitsOf = (path: string, from: number) => site.hits.slice(from).filter((h) => h === path).length;

describe('POST /v1/map', () => {
  test('lists the site from robots sitemaps, /sitemap.xml, feeds and the start page, deduplicated and in scope', async () => {
    const before = site.hits.length;
    const res = await trawl.post('/v1/map', { url: `${O()}/` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      links: [
        { url: `${O()}/`, title: 'Site home' },
        { url: `${O()}/posts/alpha`, lastmod: '2024-03-03T00:00:00.000Z', title: 'Alpha, again' },
        { url: `${O()}/posts/beta` },
        { url: `${O()}/from-default-sitemap` },
        { url: `${O()}/posts/gamma`, title: 'Post gamma', lastmod: '2024-04-02T08:00:00.000Z' },
        { url: `${O()}/posts/delta`, title: 'Post delta', lastmod: '2024-05-05T00:00:00.000Z' },
        { url: `${O()}/pages/1`, lastmod: '2024-01-01T00:00:00.000Z', title: 'Page one picture' },
        { url: `${O()}/pages/2`, lastmod: '2024-01-02T08:00:00.000Z' },
        { url: `${O()}/pages/3?b=2&a=1` },
        { url: `${O()}/about`, title: 'About us' },
        { url: `${O()}/docs/intro`, title: 'Docs intro' },
      ],
    });
    // The index lists itself and a sibling that lists it back: each document is fetched once.
    for (const path of ['/sitemaps/index.xml', '/sitemaps/loop.xml', '/sitemaps/pages.xml', '/robots.txt'])
      expect(hitsOf(path, before)).toBe(1);
    // No page was scraped: only the start page among the listed pages was requested.
    expect(hitsOf('/about', before) + hitsOf('/pages/1', before) + hitsOf('/posts/alpha', before)).toBe(0);
  });

  test('include_subdomains adds hosts of the same registrable domain, not other sites', async () => {
    const res = await trawl.post('/v1/map', { url: `${O()}/`, include_subdomains: true });
    const urls = res.body.links.map((l: { url: string }) => l.url);
    expect(res.body.links).toContainEqual({ url: `${origin('blog.site.test')}/hello`, lastmod: '2024-02-02T00:00:00.000Z' });
    expect(urls.some((u: string) => u.includes('other.test') || u.includes('elsewhere.example'))).toBe(false);
  });

  test('search keeps links whose URL or title has every term; limit cuts the list', async () => {
    const posts = await trawl.post('/v1/map', { url: `${O()}/`, search: 'POSTS' });
    expect(posts.body.links.map((l: { url: string }) => l.url.replace(O(), ''))).toEqual([
      '/posts/alpha',
      '/posts/beta',
      '/posts/gamma',
      '/posts/delta',
    ]);
    const byTitle = await trawl.post('/v1/map', { url: `${O()}/`, search: 'about us' });
    expect(byTitle.body.links).toEqual([{ url: `${O()}/about`, title: 'About us' }]);
    const none = await trawl.post('/v1/map', { url: `${O()}/`, search: 'zebra' });
    expect(none.body).toEqual({ id: expect.any(String), links: [] });
    const limited = await trawl.post('/v1/map', { url: `${O()}/`, limit: 3 });
    expect(limited.body.links.map((l: { url: string }) => l.url.replace(O(), ''))).toEqual(['/', '/posts/alpha', '/posts/beta']);
  });

  test('the start URL may itself be a sitemap', async () => {
    const res = await trawl.post('/v1/map', { url: `${O()}/sitemaps/pages.xml`, search: 'pages' });
    expect(res.body.links.map((l: { url: string }) => l.url.replace(O(), ''))).toEqual(['/pages/1', '/pages/2', '/pages/3?b=2&a=1']);
  });

  test('a redirect of the start URL, page or sitemap, brings its target host into scope', async () => {
    const page = await trawl.post('/v1/map', { url: `${origin('other.test')}/moved` });
    expect(page.status).toBe(200);
    expect(page.body.links[0]).toEqual({ url: `${O()}/`, title: 'Site home' });
    // From site.test's own /sitemap.xml and the start page's links: in scope only through the redirect.
    for (const link of [{ url: `${O()}/from-default-sitemap` }, { url: `${O()}/about`, title: 'About us' }])
      expect(page.body.links).toContainEqual(link);
    const sitemap = await trawl.post('/v1/map', { url: `${origin('other.test')}/moved-sitemap.xml`, search: 'pages' });
    expect(sitemap.body.links.slice(0, 3).map((l: { url: string }) => l.url)).toEqual([
      `${O()}/pages/1`,
      `${O()}/pages/2`,
      `${O()}/pages/3?b=2&a=1`,
    ]);
  });

  test('the start page goes through the pipeline: a DOCX start URL is listed with its title and its links', async () => {
    // The handbook's one link points at https://ferries.example/timetable: the same host, so in scope,
    // but outside the start URL's directory (/files/), so only without the path filter.
    const start = `http://ferries.example:${files.port}/files/handbook.docx`;
    const res = await trawl.post('/v1/map', { url: start, filter_by_path: false });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      links: [
        { url: start, title: 'Ferry Handbook' },
        { url: 'https://ferries.example/timetable', title: 'the timetable' },
      ],
    });
    expect(files.hits.filter((h) => h === '/files/handbook.docx')).toHaveLength(1);
    const filtered = await trawl.post('/v1/map', { url: start });
    expect(filtered.body).toEqual({
      id: expect.any(String),
      links: [{ url: start, title: 'Ferry Handbook' }],
      warnings: ['only URLs under /files/ are listed (the path filter); the site has others'],
    });
  });

  test('without the attributes format the start page still gives its title and links, not its feeds, and says so', async () => {
    const res = await noFeeds.post('/v1/map', { url: `${O()}/` });
    expect(res.status).toBe(200);
    expect(res.body.warnings).toEqual(['start page feeds not read: the attributes format is disabled']);
    const urls = res.body.links.map((l: { url: string }) => l.url.replace(O(), ''));
    expect(urls).toContain('/about');
    expect(urls).not.toContain('/posts/gamma');
    expect(res.body.links[0]).toEqual({ url: `${O()}/`, title: 'Site home' });
  });

  test('hostile sitemaps are bounded and reported: too big, gzip bomb, entity bomb, too many', async () => {
    const before = site.hits.length;
    const res = await trawl.post('/v1/map', { url: `${origin('hostile.test')}/` });
    expect(res.status).toBe(200);
    const o = origin('hostile.test');
    expect(res.body.links).toEqual([
      { url: `${o}/`, title: 'Hostile' },
      { url: `${o}/child/0` },
      { url: `${o}/child/1` },
      { url: `${o}/child/2` },
      { url: `${o}/fine`, title: 'fine' },
    ]);
    expect(res.body.warnings).toEqual([
      `sitemap ${o}/hostile/huge.xml skipped: response body exceeds 300000 bytes`,
      `sitemap ${o}/hostile/bomb.xml.gz skipped: exceeds 300000 bytes after decompression`,
      'sitemap limit reached: 8 documents fetched, 37 more not fetched',
    ]);
    expect(site.hits.slice(before).filter((h) => h.startsWith('/hostile/child-'))).toHaveLength(3);
  });

  test('sitemap indexes nested deeper than maxSitemapDepth are not followed', async () => {
    const o = origin('deep.test');
    const res = await trawl.post('/v1/map', { url: `${o}/hostile/deep-1.xml` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      links: [],
      warnings: [`sitemap index ${o}/hostile/deep-3.xml not followed: nested deeper than 2`],
    });
  });

  test('a slow sitemap stops at map.timeoutMs with what was found so far', async () => {
    const res = await trawl.post('/v1/map', { url: `${origin('slow.test')}/`, search: 'site home' });
    expect(res.status).toBe(200);
    expect(res.body.links).toEqual([{ url: `${origin('slow.test')}/`, title: 'Site home' }]);
    expect(res.body.warnings).toEqual(['stopped after 1500 ms; the list may be incomplete']);
  });

  test('a start page that cannot be fetched, with nothing else found, is 422', async () => {
    const refused = await trawl.post('/v1/map', { url: 'http://127.0.0.1:1/' });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ error: 'Failed to fetch URL: connection refused' });
    const forbidden = await strict.post('/v1/map', { url: site.at('/') });
    expect(forbidden.status).toBe(422);
    expect(forbidden.body.error).toContain('address 127.0.0.1 is not allowed');
  });

  const invalid: Array<[string, unknown, string]> = [
    ['missing url', {}, 'Missing required field: url'],
    ['a non-http url', { url: 'ftp://site.test/' }, 'Invalid field url: must be an absolute http(s) URL'],
    ['limit zero', { url: 'https://site.test/', limit: 0 }, 'Invalid field limit:'],
    ['limit over the cap', { url: 'https://site.test/', limit: 100_001 }, 'Invalid field limit:'],
    ['a fractional limit', { url: 'https://site.test/', limit: 2.5 }, 'Invalid field limit:'],
    ['search not a string', { url: 'https://site.test/', search: ['a'] }, 'Invalid field search:'],
    ['include_subdomains not a boolean', { url: 'https://site.test/', include_subdomains: 'yes' }, 'Invalid field include_subdomains:'],
    [
      'an unknown sitemap mode',
      { url: 'https://site.test/', sitemap: 'sometimes' },
      'Invalid field sitemap: must be "include", "only" or "skip"',
    ],
    ['filter_by_path not a boolean', { url: 'https://site.test/', filter_by_path: 'yes' }, 'Invalid field filter_by_path:'],
    ['an unknown field', { url: 'https://site.test/', sitemap_only: true }, 'Unknown field: sitemap_only'],
  ];
  for (const [name, body, message] of invalid) {
    test(`400 for ${name}`, async () => {
      const res = await trawl.post('/v1/map', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toStartWith(message);
    });
  }

  test('400 for a body that is not a JSON object', async () => {
    for (const body of ['[1]', '{nope', '']) {
      const res = await trawl.post('/v1/map', body);
      expect(res.status).toBe(400);
      expect(typeof res.body.error).toBe('string');
    }
  });
});
