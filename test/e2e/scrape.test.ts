/**
 * End to end: a real server on 127.0.0.1 scraping a fixture site — markdown, text, links and
 * metadata of real-looking pages, selectors, main content, the response cache (on SQLite and, when
 * TEST_DATABASE_URL is set, Postgres), non-UTF-8 pages, the SSRF guard and the CLI.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import iconv from 'iconv-lite';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { ADMIN_KEY, bearer, cloudTenants } from '../helpers/cloud-tenants.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { testDatabases } from '../helpers/databases.ts';
import { runCli } from '../helpers/cli.ts';

const fixture = (name: string) => Bun.file(new URL(`../fixtures/site/${name}`, import.meta.url)).text();
let site: FixtureSite;
let server: TestServer;
let counter = 0;

beforeAll(async () => {
  site = startFixtureSite({
    '/news/tidal': await fixture('article.html'),
    '/docs/retries': await fixture('docs.html'),
    '/faq': `<html><body><nav><a href="/">Home</a> <a href="/help">Help</a></nav><main><h1>Shipping questions</h1>
      <p>Everything about how parcels travel from our warehouse to your door, answered in one place for you.</p>
      <div class="accordion"><button aria-expanded="false">How long does delivery take?</button>
      <div class="accordion-body" style="display:none"><p>Parcels arrive within three working days, tracked all the way, and a courier calls ahead.</p></div></div>
      <div style="display:none" class="promo-popup"><p>Sign up now for ten percent off your first order with us today.</p></div></main>
      <footer>© 2026 Parcels Ltd</footer></body></html>`,
    '/kettle': `<html><head><title>The Stillwater kettle</title></head><body><nav><a href="/">Shop</a> <a href="/kettles">Kettles</a></nav>
      <main><article><h1>The Stillwater kettle</h1>
      <p>Our quietest kettle yet boils a full litre in under three minutes, and you will barely hear it doing so in the morning.</p>
      <p>The body is brushed steel with a cool-touch handle, and the lid opens wide enough to clean the inside by hand.</p>
      <p>Every kettle is tested at the factory and comes with a five-year guarantee on the heating element and the switch.</p></article>
      <section class="specs"><h2>Specifications</h2><ul><li>Capacity: 1.7 litres</li><li>Power: 2200 watts</li><li>Weight: 1.1 kg</li></ul>
      <div class="cookie-banner">We use cookies. <a href="/privacy">Privacy policy</a></div>
      <div style="display:none" class="promo-popup"><p>Sign up now for ten percent off your first order with us today.</p></div></section></main>
      <footer>© 2026 Kettle Co</footer></body></html>`,
    '/counted': () =>
      new Response(`<html><body><p>Visit number ${++counter}</p></body></html>`, { headers: { 'content-type': 'text/html' } }),
    '/ru': {
      body: iconv.encode(
        '<html><head><meta charset="windows-1251"><title>Новости</title></head><body><p>Привет, мир! Съешь же ещё этих мягких булок.</p></body></html>',
        'win1251',
      ),
      headers: { 'content-type': 'text/html' },
    },
    '/ja': {
      body: iconv.encode(
        '<html><head><title>日本語</title></head><body><p>こんにちは世界。吾輩は猫である。</p></body></html>',
        'Shift_JIS',
      ),
      headers: { 'content-type': 'text/html; charset=Shift_JIS' },
    },
    '/moved': () => new Response(null, { status: 301, headers: { location: '/news/tidal' } }),
    '/missing': { status: 404, body: '<html><head><title>Not here</title></head><body><h1>Page not found</h1></body></html>' },
  });
  server = await startTrawlServer();
});
afterAll(async () => {
  await server.stop();
  await site.stop();
});

describe('scrape a real-looking article', () => {
  test('markdown keeps structure with absolute URLs; metadata is complete', async () => {
    const res = await server.post('/v1/scrape', { url: site.at('/news/tidal') });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['markdown', 'metadata', 'url']);
    const md: string = res.body.markdown;
    expect(md).toContain('# Tidal energy finds its footing');
    expect(md).toContain('## How the turbines work');
    expect(md).toContain('**ebb and flood**');
    expect(md).toContain('- Rotor diameter: 18 metres');
    expect(md).toContain('| Year | Output (GWh) |\n| --- | --- |\n| 2024 | 41 |');
    expect(md).toContain(`![Map of the turbine array](${site.at('/media/array-map.png')})`);
    expect(md).toContain(`[Pentland Firth](https://en.example.org/wiki/Pentland_Firth)`);
    expect(md).not.toContain('Hidden promo text');
    expect(md).not.toContain('Template text');
    expect(md).not.toContain('analytics');
    expect(md).not.toMatch(/\n{3,}/);
    expect(res.body.metadata).toMatchObject({
      title: 'Tidal energy finds its footing',
      description: 'A small Scottish firm has run underwater turbines for six years without a major failure.',
      author: 'Morag Lindsay',
      published_date: '2026-03-14T08:30:00.000Z',
      language: 'en-GB',
      site_name: 'Harbour Post',
      image: site.at('/media/turbine-hero.jpg'),
      favicon: site.at('/static/icon-192.png'),
      status_code: 200,
    });
    expect(res.body.metadata.word_count).toBeGreaterThan(80);
  });

  test('text and links', async () => {
    const res = await server.post('/v1/scrape', { url: site.at('/news/tidal'), formats: ['text', 'links'] });
    expect(res.body.markdown).toBeUndefined();
    expect(res.body.text).toContain('How the turbines work\n\nEach turbine sits on the seabed');
    expect(res.body.text).not.toContain('#');
    expect(res.body.links).toContainEqual({ text: 'Pentland Firth', href: 'https://en.example.org/wiki/Pentland_Firth' });
    expect(res.body.links).toContainEqual({ text: 'Privacy', href: site.at('/privacy') });
    for (const link of res.body.links) expect(link.href).toMatch(/^https?:\/\//);
  });

  test('rawHtml is the page as received', async () => {
    const res = await server.post('/v1/scrape', { url: site.at('/news/tidal'), formats: ['rawHtml'] });
    expect(res.body.rawHtml).toBe(await fixture('article.html'));
  });

  test('only_main_content drops navigation, sidebar and footer', async () => {
    const res = await server.post('/v1/scrape', { url: site.at('/news/tidal'), formats: ['markdown'], only_main_content: true });
    const md: string = res.body.markdown;
    expect(md).toContain('## How the turbines work');
    expect(md).toContain('| 2025 | 44 |');
    for (const junk of ['About us', 'Most read', 'Ferry timetable', '© 2026', 'Privacy']) expect(md).not.toContain(junk);
    const full = await server.post('/v1/scrape', { url: site.at('/news/tidal'), formats: ['markdown'] });
    expect(res.body.metadata.word_count).toBeLessThan(full.body.metadata.word_count);
  });

  test('only_main_content keeps folded-away answers (closed accordion) and drops what is really hidden', async () => {
    const res = await server.post('/v1/scrape', { url: site.at('/faq'), formats: ['text'], only_main_content: true });
    expect(res.body.text).toContain('Parcels arrive within three working days');
    expect(res.body.text).not.toContain('ten percent off');
    const full = await server.post('/v1/scrape', { url: site.at('/faq'), formats: ['text'] });
    expect(full.body.text).not.toContain('Parcels arrive within three working days');
  });

  test('include_selectors and exclude_selectors', async () => {
    const only = await server.post('/v1/scrape', {
      url: site.at('/docs/retries'),
      formats: ['markdown'],
      include_selectors: ['#content'],
      exclude_selectors: ['.warning'],
    });
    expect(only.body.markdown).toContain('# Configuring retries');
    expect(only.body.markdown).toContain('```js\nconst queue = new Queue({ maxAttempts: 5 });\nqueue.start();\n```');
    expect(only.body.markdown).not.toContain('Getting started');
    expect(only.body.markdown).not.toContain('Buy more ferries');
    expect(only.body.markdown).not.toContain('transient failures');
    const bad = await server.post('/v1/scrape', { url: site.at('/docs/retries'), include_selectors: ['div[['] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('include_selectors[0]');
  });

  test('include_selectors with only_main_content: main content runs inside the selection', async () => {
    const res = await server.post('/v1/scrape', {
      url: site.at('/kettle'),
      formats: ['markdown'],
      include_selectors: ['.specs'],
      only_main_content: true,
    });
    expect(res.status).toBe(200);
    const md: string = res.body.markdown;
    for (const kept of ['Specifications', 'Capacity: 1.7 litres', 'Power: 2200 watts']) expect(md).toContain(kept);
    // (and main content worked inside it: the cookie banner and the hidden promo went)
    for (const dropped of ['quietest kettle', 'Kettle Co', 'We use cookies', 'ten percent off']) expect(md).not.toContain(dropped);
  });

  test('redirects are followed and the final URL recorded; an error page is still content', async () => {
    const moved = await server.post('/v1/scrape', { url: site.at('/moved'), formats: ['text'] });
    expect(moved.body.metadata.final_url).toBe(site.at('/news/tidal'));
    const missing = await server.post('/v1/scrape', { url: site.at('/missing'), formats: ['text'] });
    expect(missing.status).toBe(200);
    expect(missing.body.metadata.status_code).toBe(404);
    expect(missing.body.text).toContain('Page not found');
  });
});

describe('page type and content confidence', () => {
  // (not toMatchObject with expect.any: Bun 1.4's writes the matcher into the object it checks)
  const probability = (value: unknown) => typeof value === 'number' && value > 0 && value <= 1;

  test('every result says what kind of page it is and how far to trust its content, in /v1 and /v2, and both are documented', async () => {
    for (const only_main_content of [true, false]) {
      const { body } = await server.post('/v1/scrape', { url: site.at('/news/tidal'), only_main_content });
      expect([body.metadata.page_type, probability(body.metadata.content_confidence)]).toEqual(['article', true]);
    }
    const { body: v2 } = await server.post('/v2/scrape', { url: site.at('/news/tidal'), formats: ['markdown'] });
    expect([v2.data.metadata.pageType, probability(v2.data.metadata.contentConfidence)]).toEqual(['article', true]);
    const { body: openapi } = await server.get('/openapi.json');
    const documented = openapi.components.schemas.Metadata.properties;
    expect([documented.page_type.enum, documented.content_confidence.type]).toEqual([
      ['article', 'forum', 'product', 'listing', 'collection', 'documentation', 'service', 'other'],
      'number',
    ]);
  });
});

describe('non-UTF-8 pages', () => {
  test('windows-1251 declared only in <meta>', async () => {
    const res = await server.post('/v1/scrape', { url: site.at('/ru'), formats: ['text'] });
    expect(res.body.text).toBe('Привет, мир! Съешь же ещё этих мягких булок.');
    expect(res.body.metadata.title).toBe('Новости');
  });

  test('Shift_JIS declared in the Content-Type header', async () => {
    const res = await server.post('/v1/scrape', { url: site.at('/ja'), formats: ['text'] });
    expect(res.body.text).toBe('こんにちは世界。吾輩は猫である。');
  });
});

for (const database of testDatabases()) {
  describe(`response cache on ${database.name}`, () => {
    test('a repeat is served from the cache; no_cache and other options fetch afresh', async () => {
      const storage = await database.open();
      const cached = await startTrawlServer({ storage });
      try {
        const url = site.at('/counted');
        const first = await cached.post('/v1/scrape', { url, formats: ['text'] });
        const second = await cached.post('/v1/scrape', { url, formats: ['text'] });
        expect(first.headers.get('x-trawl-cache')).toBe('miss');
        expect(second.headers.get('x-trawl-cache')).toBe('hit');
        expect(second.body).toEqual(first.body);
        const fresh = await cached.post('/v1/scrape', { url, formats: ['text'], no_cache: true });
        expect(fresh.headers.get('x-trawl-cache')).toBe('miss');
        expect(fresh.body.text).not.toBe(first.body.text);
        const otherOptions = await cached.post('/v1/scrape', { url, formats: ['text', 'links'] });
        expect(otherOptions.headers.get('x-trawl-cache')).toBe('miss');
        // the fresh fetch refreshed the cache
        const after = await cached.post('/v1/scrape', { url, formats: ['text'] });
        expect(after.body.text).toBe(fresh.body.text);
      } finally {
        await cached.stop();
        await storage.close();
      }
    });
  });
}

describe('SSRF guard (allowPrivateNetwork = false)', () => {
  let guarded: TestServer;
  beforeAll(async () => {
    guarded = await startTrawlServer({
      overrides: {
        fetch: { allowPrivateNetwork: false, resolve: { 'intranet.example.com': '10.1.2.3', 'sneaky.example.com': '127.0.0.1' } },
      },
    });
  });
  afterAll(() => guarded.stop());

  const targets: Array<[string, () => string, RegExp]> = [
    ['loopback', () => site.at('/news/tidal'), /^Failed to fetch URL: address 127\.0\.0\.1 is not allowed/],
    ['private 10/8', () => 'http://10.0.0.1/', /^Failed to fetch URL: address 10\.0\.0\.1 is not allowed/],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/', /^Failed to fetch URL: address 169\.254\.169\.254 is not allowed/],
    ['IPv6 loopback', () => `http://[::1]:${site.port}/`, /^Failed to fetch URL: address ::1 is not allowed/],
    [
      'a name resolving to a private address',
      () => 'http://intranet.example.com/',
      /^Failed to fetch URL: address 10\.1\.2\.3 is not allowed/,
    ],
    [
      'a name resolving to loopback',
      () => `http://sneaky.example.com:${site.port}/news/tidal`,
      /^Failed to fetch URL: address 127\.0\.0\.1 is not allowed/,
    ],
  ];
  for (const [name, url, message] of targets) {
    test(`refuses ${name}`, async () => {
      const before = site.hits.length;
      const res = await guarded.post('/v1/scrape', { url: url(), no_cache: true });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatch(message);
      expect(site.hits.length).toBe(before);
    });
  }

  test('self-hosted, the refusal names the setting that allows private addresses; cloud mode does not suggest it', async () => {
    const url = site.at('/news/tidal');
    const selfHosted = await guarded.post('/v1/scrape', { url, no_cache: true });
    expect(selfHosted.body.error).toBe(
      'Failed to fetch URL: address 127.0.0.1 is not allowed (loopback address); set fetch.allowPrivateNetwork = true (or TRAWL_FETCH_ALLOW_PRIVATE_NETWORK=true) to allow private addresses',
    );
    const cloud = await startTrawlServer({ overrides: { mode: 'cloud', adminKey: ADMIN_KEY, fetch: { allowPrivateNetwork: false } } });
    try {
      const { key } = await cloudTenants(() => cloud).tenant('starter', 10);
      const refused = await cloud.post('/v1/scrape', { url, no_cache: true }, bearer(key));
      expect([refused.status, refused.body.error]).toEqual([
        422,
        'Failed to fetch URL: address 127.0.0.1 is not allowed (loopback address)',
      ]);
    } finally {
      await cloud.stop();
    }
  });
});

describe('CLI', () => {
  const cli = runCli;

  test('prints markdown, text and links through the same pipeline', async () => {
    const markdown = await cli(site.at('/news/tidal'));
    expect(markdown.exitCode).toBe(0);
    expect(markdown.stdout).toContain('## How the turbines work');
    const text = await cli(site.at('/news/tidal'), '--format', 'text', '--main');
    expect(text.stdout).toContain('Each turbine sits on the seabed');
    expect(text.stdout).not.toContain('Most read');
    const links = JSON.parse((await cli(site.at('/news/tidal'), '--format', 'links')).stdout);
    expect(links).toContainEqual({ text: 'Privacy', href: site.at('/privacy') });
  });

  test('reports bad input and fetch failures with a non-zero exit', async () => {
    const bad = await cli('ftp://x');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('Invalid field url');
    const refused = await cli('http://no-such-host.invalid/');
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('Failed to fetch URL: could not resolve host');
  });
});
