/**
 * End to end with real Chromium in a real server process: a rendered page that would take the
 * browser gigabytes is stopped by the render limits with a 422 naming the setting, the process
 * tree's memory stays bounded while it happens, and `/health` answers throughout. The huge page
 * is cut by the guard proxy (`browser.maxResponseBytes`); a page that grows its DOM without end
 * has its tab killed at the renderer ceiling (`browser.maxRendererMb`).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { requireChromium } from '../../core/browser/testing.ts';
import { hugePage } from '../helpers/huge-page.ts';
import { pollHealth, sampleTreeRss, startServerProcess, type ServerProcess } from '../helpers/server-process.ts';

const RENDERER_MB = 300;
/** A script that adds ~5 MB of DOM text every few milliseconds (Blink memory, outside the V8 heap cap). */
const GROWING = `<html><body><script>
  const chunk = '<p>' + 'word '.repeat(1000) + '</p>';
  setInterval(() => { for (let i = 0; i < 1000; i++) document.body.insertAdjacentHTML('beforeend', chunk); }, 5);
</script></body></html>`;

let site: ReturnType<typeof Bun.serve>;
let server: ServerProcess;

beforeAll(async () => {
  requireChromium();
  const huge = hugePage(20);
  site = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (req) => {
      const pages: Record<string, string> = { '/huge': huge, '/grow': GROWING, '/small': '<html><body><p>Small.</p></body></html>' };
      return new Response(pages[new URL(req.url).pathname] ?? '', { headers: { 'content-type': 'text/html' } });
    },
  });
  server = await startServerProcess({ env: { TRAWL_BROWSER_MAX_RENDERER_MB: String(RENDERER_MB) } });
  // The browser starts on first use: a small page first, so the baseline holds an idle browser.
  await server.post('/v1/scrape', { url: `http://127.0.0.1:${site.port}/small`, render: true, timeout: 2000 });
});
afterAll(async () => {
  await server?.stop();
  site?.stop(true);
});

async function scrapeWatched(path: string, timeout: number) {
  const memory = sampleTreeRss(server.pid, 50);
  const health = pollHealth(server.url, { intervalMs: 200, answerWithinMs: 1000 });
  const answer = await server.post('/v1/scrape', {
    url: `http://127.0.0.1:${site.port}${path}`,
    render: true,
    formats: ['markdown'],
    timeout,
  });
  return { status: answer.status, body: (await answer.json()) as { error?: string }, memory: memory.stop(), health: await health.stop() };
}

test('a 20 MB page is cut by the guard proxy: 422 naming browser.maxResponseBytes, little memory spent', async () => {
  const run = await scrapeWatched('/huge', 30_000);
  expect(run.status).toBe(422);
  expect(run.body.error).toContain('browser.maxResponseBytes');
  console.log(`huge page: tree RSS ${run.memory.startMb} -> peak ${run.memory.peakMb} MB, slowest /health ${run.health.slowestMs} ms`);
  expect(run.memory.peakMb).toBeLessThan(2048); // unbounded, this page took the tree past 6 GB
  expect(run.health.answered).toBe(run.health.polls);
}, 60_000);

test('a page growing without end has its tab killed at browser.maxRendererMb: 422, tree bounded, /health answering', async () => {
  const run = await scrapeWatched('/grow', 50_000);
  expect(run.status).toBe(422);
  expect(run.body.error).toContain('browser.maxRendererMb');
  // The renderer is stopped at its ceiling (plus one sample's growth); the browser process and
  // the serialising server add some on top, never the gigabytes an unbounded tab takes.
  console.log(`growing page: tree RSS ${run.memory.startMb} -> peak ${run.memory.peakMb} MB, slowest /health ${run.health.slowestMs} ms`);
  expect(run.memory.growthMb).toBeLessThan(RENDERER_MB + 1000);
  expect(run.memory.peakMb).toBeLessThan(2048);
  expect(run.health.answered).toBe(run.health.polls);
  // The server goes on rendering after the kill.
  const next = await server.post('/v1/scrape', { url: `http://127.0.0.1:${site.port}/small`, render: true, timeout: 10_000 });
  expect(next.status).toBe(200);
}, 60_000);
