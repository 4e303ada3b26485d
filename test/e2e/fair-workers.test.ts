/**
 * Content workers are shared fairly between workspaces (cloud mode): workspace A sends a burst of
 * costly pages (1.5 MB each, under the heavy-page bound, so they may fill every worker; 1–3.5 s
 * each on a shared 2-core machine), and workspace B's small page, sent once A's pages wait for
 * workers, is processed as soon as a worker frees up instead of after A's whole burst (FairOrder
 * places it ahead of the burst's tail; workers/share.ts lets it pass A's pages even when A's clock
 * has fallen behind). In first-come order B waited for 11 of A's 12 pages.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test';
import { CoreTokens } from '../../core/tokens.ts';
import { ADMIN_KEY, bearer, cloudTenants } from '../helpers/cloud-tenants.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { hugePage } from '../helpers/huge-page.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

setDefaultTimeout(90_000);

const BURST = 12;
const HEAVY = hugePage(1.5);

let site: FixtureSite;
let server: TestServer;
const { tenant, until } = cloudTenants(() => server);

beforeAll(async () => {
  site = startFixtureSite({
    '/heavy': () => new Response(HEAVY, { headers: { 'content-type': 'text/html; charset=utf-8' } }),
    '/small': '<html><head><title>Tides</title></head><body><article><p>The sea rises and falls twice a day.</p></article></body></html>',
  });
  server = await startTrawlServer({
    overrides: { mode: 'cloud', adminKey: ADMIN_KEY, workers: { size: 2 }, scrape: { timeoutMs: 60_000 } },
  });
});
afterAll(async () => {
  await Promise.all([server.stop(), site.stop()]);
});

test("one workspace's burst of costly pages does not hold another's page until the burst is done", async () => {
  const [a, b] = [await tenant('scale', 1000), await tenant('scale', 1000)];
  const pool = server.trawl.container.resolve(CoreTokens.Workers);
  expect(HEAVY.length).toBeLessThan(server.trawl.config.workers.heavyBytes);
  // Both workers started and booted, so B's page is not timed against a cold start.
  expect((await server.post('/v1/scrape', { url: site.at('/small?warm') }, bearer(b.key))).status).toBe(200);

  const started = performance.now();
  const doneA: number[] = [];
  const burst = Array.from({ length: BURST }, (_, i) =>
    server.post('/v1/scrape', { url: site.at(`/heavy?page=${i}`) }, bearer(a.key)).then((answer) => {
      doneA.push(performance.now() - started);
      return answer;
    }),
  );
  // A's pages hold both workers and the rest wait for one.
  await until(async () => pool.stats().queued >= BURST - 4);

  const sentB = performance.now();
  const answerB = await server.post('/v1/scrape', { url: site.at('/small') }, bearer(b.key));
  const waitedB = performance.now() - sentB;
  const finishedA = doneA.length;
  const answers = await Promise.all(burst);
  const drained = performance.now() - started;
  console.log(
    `B's page: ${waitedB.toFixed(0)} ms, after ${finishedA} of A's ${BURST} pages; A's burst drained in ${drained.toFixed(0)} ms`,
  );

  expect(answerB.status).toBe(200);
  expect(answerB.body.markdown).toContain('The sea rises and falls twice a day.');
  for (const answer of answers) expect(answer.status).toBe(200);
  // B waited for the pages running when it came (one each worker) and a little more (its own page
  // shares the two cores with A's), not for A's queue: in first-come order it waited out 11 of 12.
  expect(finishedA).toBeLessThanOrEqual(4);
  expect(waitedB).toBeLessThan(drained / 2);
});
