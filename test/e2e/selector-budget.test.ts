/**
 * A costly selector cannot hold the content workers: `:has()` starting at a sibling is a 400 up
 * front, and an allowed selector that is still slow on a page with 40,000 siblings is stopped at
 * `scrape.selectorBudgetMs` (422 naming the selector and the setting, the worker replaced), so an
 * unrelated scrape next to two of them finishes within a few seconds.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

setDefaultTimeout(60_000);

let site: FixtureSite;
let trawl: TestServer;

beforeAll(async () => {
  site = startFixtureSite({
    // Matching p:nth-last-child(2) here takes ~1.7 s of a warm worker on this machine (20,000
    // siblings took 0.2–0.3 s, under the budget on a quiet machine): six times the budget below.
    '/siblings': `<html><body><main>${'<p>x</p>'.repeat(40_000)}</main></body></html>`,
    '/small': '<html><head><title>Small</title></head><body><main><p>A small page that parses at once.</p></main></body></html>',
  });
  trawl = await startTrawlServer({ overrides: { workers: { size: 2 }, scrape: { selectorBudgetMs: 300 } } });
});
afterAll(async () => {
  await Promise.all([trawl.stop(), site.stop()]);
});

test(':has() starting at a sibling is refused with a 400 naming the selector', async () => {
  const answer = await trawl.post('/v1/scrape', { url: site.at('/siblings'), exclude_selectors: ['p:has(~ p ~ p)'] });
  expect(answer.status).toBe(400);
  expect(answer.body.error).toContain('"p:has(~ p ~ p)"');
});

test('two slow selectors answer 422 at the budget while an unrelated scrape finishes in seconds', async () => {
  // Allowed, but quadratic in the siblings: seconds per page with 40,000 of them.
  const slow = () =>
    trawl.post('/v1/scrape', { url: site.at('/siblings'), formats: ['markdown'], exclude_selectors: ['p:nth-last-child(2)'] });
  const started = performance.now();
  const costly = [slow(), slow()];
  await Bun.sleep(200);
  const small = await trawl.post('/v1/scrape', { url: site.at('/small'), formats: ['markdown'] });
  const smallMs = performance.now() - started;
  const answers = await Promise.all(costly);
  const costlyMs = performance.now() - started;
  console.log(`unrelated scrape ${smallMs.toFixed(0)} ms; two slow selectors answered in ${costlyMs.toFixed(0)} ms`);
  expect(small.status).toBe(200);
  expect(small.body.data?.markdown ?? JSON.stringify(small.body)).toContain('A small page');
  for (const answer of answers) {
    expect(answer.status).toBe(422);
    expect(answer.body.error).toContain('"p:nth-last-child(2)"');
    expect(answer.body.error).toContain('scrape.selectorBudgetMs');
  }
  expect(smallMs).toBeLessThan(5000);
  expect(costlyMs).toBeLessThan(8000);
});
