/**
 * End to end: the request and parse limits of issue 11 through POST /v1/scrape. Selectors past a
 * length, count or complexity limit are a 400 naming the field and the limit, answered before the
 * page is fetched (the selectors took 8–229 s on a 20,000-element page); a 20 MB page of
 * 2.5 million paragraphs is read up to the element limit with a warning, in bounded time and memory.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { withCpu } from '../helpers/load.ts';

/** 20,000 sibling elements: where positional pseudo-classes cost the most. */
const WIDE = `<!doctype html><html><body>${'<p>x</p>'.repeat(20_000)}</body></html>`;
const HUGE = '<p>x</p>'.repeat(2_500_000);

let site: FixtureSite;
let server: TestServer;

beforeAll(async () => {
  site = startFixtureSite({
    '/wide': WIDE,
    '/ten': `<!doctype html><html><body>${'<p>x</p>'.repeat(10)}</body></html>`,
    '/huge': () => new Response(HUGE, { headers: { 'content-type': 'text/html' } }),
  });
  server = await startTrawlServer({ overrides: { storage: { cacheTtlSeconds: 0 } } });
});
afterAll(async () => {
  await server.stop();
  await site.stop();
});

// A generous `timeout`: these tests are about what is refused or read, and a loaded machine
// stretches a scrape's wall time far past what it costs.
const scrape = (fields: Record<string, unknown>) =>
  server.post('/v1/scrape', { url: site.at('/wide'), formats: ['markdown'], timeout: 60_000, ...fields });
const alternatives = (n: number, each = 'p') => Array(n).fill(each).join(', ');
const pairs = (selectors: string[]) => selectors.map((selector) => ({ selector, attribute: 'id' }));

describe('selector limits: a 400 naming the field and the limit', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    [
      'a selector over 2000 characters',
      { include_selectors: ['p', `.${'a'.repeat(2000)}`] },
      'Invalid field include_selectors[1]: selector is longer than 2000 characters',
    ],
    ['more than 50 selectors', { exclude_selectors: Array(51).fill('p') }, 'Invalid field exclude_selectors: at most 50 selectors'],
    [
      'more than 50 attribute selectors',
      { formats: ['attributes'], attribute_selectors: pairs(Array(51).fill('p')) },
      'Invalid field attribute_selectors: at most 50 selectors',
    ],
    [
      'more than 50 alternatives in one selector',
      { exclude_selectors: [alternatives(51)] },
      'Invalid field exclude_selectors[0]: selector has more than 50 alternatives',
    ],
    [
      'more than 100 alternatives in one field',
      { include_selectors: [alternatives(50), alternatives(50), 'p'] },
      'Invalid field include_selectors[2]: the selectors have more than 100 alternatives in all',
    ],
    [
      'more than 50 combinators in a row',
      { include_selectors: [Array(52).fill('p').join(' > ')] },
      'Invalid field include_selectors[0]: selector has more than 50 combinators in one alternative',
    ],
    [
      'pseudo-classes nested more than 3 deep',
      { exclude_selectors: [':not(:not(:not(:not(p))))'] },
      'Invalid field exclude_selectors[0]: selector nests pseudo-classes more than 3 deep',
    ],
    [
      'an :nth-child() number out of range',
      { include_selectors: [':nth-child(9999999999999n+1)'] },
      'Invalid field include_selectors[0]: :nth-child() argument out of range (numbers up to 10000)',
    ],
    [
      'the same in attribute_selectors',
      { formats: ['attributes'], attribute_selectors: pairs(['a', 'li:nth-of-type(20001)']) },
      'Invalid field attribute_selectors[1]: :nth-of-type() argument out of range (numbers up to 10000)',
    ],
  ];
  for (const [name, fields, error] of cases) {
    test(name, async () => {
      const res = await scrape(fields);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error });
    });
  }

  test("the issue's selectors on a 20,000-element page answer 400 at once instead of running", async () => {
    const hostile: Array<Record<string, unknown>> = [
      { include_selectors: [':nth-child(9999999999999n+1)'] },
      { include_selectors: Array(10).fill(':nth-child(9999999999999n+1)') },
      { include_selectors: [alternatives(5_000)] },
      { include_selectors: [alternatives(1_000, 'a')] },
      { formats: ['attributes'], attribute_selectors: pairs([alternatives(5_000)]) },
      { formats: ['attributes'], attribute_selectors: pairs(Array(10).fill(':nth-child(9999999999999n+1)')) },
    ];
    const before = site.hits.length;
    for (const fields of hostile) {
      const { result: res, cpuMs } = await withCpu(() => scrape(fields));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^Invalid field (include|attribute)_selectors\[0\]: /);
      expect(cpuMs).toBeLessThan(1000);
    }
    // refused before anything was fetched
    expect(site.hits.length).toBe(before);
  });

  test('selectors within the limits still work', async () => {
    const res = await scrape({ url: site.at('/ten'), include_selectors: ['p:nth-child(-n+3)'] });
    expect(res.status).toBe(200);
    expect(res.body.markdown).toBe('x\n\nx\n\nx');
  });

  // The 8 s of the issue's :nth-child() was never its numbers: css-select reads every element's
  // siblings and linkedom listed them afresh each time (patches/README.md). Still quadratic in the
  // siblings; the worker deadline bounds what is left.
  // (CPU time, not the wall clock: a loaded machine stretches the wall clock.)
  test('a positional pseudo-class on 20,000 siblings takes well under the time limit', async () => {
    const { result: res, cpuMs } = await withCpu(() => scrape({ include_selectors: ['p:nth-child(10000)', 'p:nth-last-child(10000)'] }));
    expect(res.status).toBe(200);
    expect(res.body.markdown).toBe('x\n\nx');
    expect(cpuMs).toBeLessThan(4000);
  });
});

test('a 20 MB page of 2.5 million paragraphs: read up to the element limit, with a warning, in bounded time and memory', async () => {
  Bun.gc(true);
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 25);
  const { result: res, cpuMs } = await withCpu(() =>
    server
      .post('/v1/scrape', {
        url: site.at('/huge'),
        formats: ['markdown', 'attributes'],
        attribute_selectors: [{ selector: 'p', attribute: 'id' }],
        no_cache: true,
      })
      .finally(() => clearInterval(sampler)),
  );
  expect(res.status).toBe(200);
  expect(res.body.warnings).toEqual(['document.html: The page has more than 300000 elements; only the first 300000 are read']);
  expect(res.body.markdown.length).toBe(300_000 * 3 - 2);
  // Whole, this page took 23 s and 3.4 GB (markdown alone); cut, about 3 s and 0.6 GB here. The
  // bound is on the CPU time the server (in this process, every thread) spent, not on the wall
  // clock: on a machine shared at load 15 the same work takes several times as long to finish.
  expect(cpuMs).toBeLessThan(15_000);
  expect(peak - before).toBeLessThan(1024 ** 3);
}, 180_000);

test('the OpenAPI document names the selector limits', async () => {
  const { body } = await server.get('/openapi.json');
  expect(body.paths['/v1/scrape'].post.responses[400].description).toContain('50 alternatives per selector and 100 per field');
});
