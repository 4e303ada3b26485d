// The browser pool against real Chromium: fresh contexts, the concurrency bound, deadlines,
// cancellation, recycling, crash recovery, shutdown, a missing browser, and the SSRF guard proxy
// on every connection a page opens (subresources, fetch, redirect hops, WebSockets, tunnels).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startFixtureSite, type FixtureSite } from '../../test/helpers/fixture-site.ts';
import { failure } from '../testing.ts';
import type { AddressPolicy } from '../net/address-guard.ts';
import { forbiddenAddressReason } from '../net/ssrf.ts';
import type { BrowserPool } from '../services.ts';
import { eventually, processAlive, requireChromium, testBrowserPool } from './testing.ts';

let site: FixtureSite;
beforeAll(() => {
  requireChromium();
  site = startFixtureSite({ '/': '<title>Pool</title><p>pool page</p>' });
});
afterAll(() => site.stop());

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('one pool', () => {
  let pool: BrowserPool;
  beforeAll(() => {
    pool = testBrowserPool({ browser: { maxContexts: 2 } });
  });
  afterAll(() => pool.close());

  test('every job gets a fresh context: nothing one job stores is seen by the next', async () => {
    await pool.withPage({}, async ({ page }) => {
      await page.goto(site.at('/'));
      await page.evaluate(() => {
        // biome-ignore lint/suspicious/noDocumentCookie: the test leaves a cookie behind to see that the next session starts without it
        document.cookie = 'seen=1';
        localStorage.setItem('seen', '1');
      });
    });
    const state = await pool.withPage({}, async ({ page }) => {
      await page.goto(site.at('/'));
      return page.evaluate(() => ({ cookie: document.cookie, stored: localStorage.getItem('seen') }));
    });
    expect(state).toEqual({ cookie: '', stored: null });
    expect(pool.stats()).toMatchObject({ launches: 1, pagesServed: 2, activeContexts: 0 });
  });

  test('at most maxContexts jobs run at once; the rest wait their turn in order', async () => {
    const gates = [gate(), gate(), gate(), gate()];
    const order: number[] = [];
    let running = 0;
    let peak = 0;
    const jobs = gates.map((g, i) =>
      pool.withPage({}, async () => {
        order.push(i);
        peak = Math.max(peak, ++running);
        await g.opened;
        running--;
      }),
    );
    expect(await eventually(() => running === 2 && pool.stats().waiting === 2)).toBe(true);
    expect(order.toSorted()).toEqual([0, 1]);
    // Each freed slot goes to the longest waiter.
    gates[order[0]!]!.open();
    expect(await eventually(() => order.length === 3)).toBe(true);
    expect(order[2]).toBe(2);
    gates[order[1]!]!.open();
    expect(await eventually(() => order.length === 4)).toBe(true);
    expect(order[3]).toBe(3);
    for (const g of gates) g.open();
    await Promise.all(jobs);
    expect(peak).toBe(2);
    // Every job's context is closed; what stays open is the one warm spare for the next job.
    expect(await eventually(() => pool.stats().openContexts === 1)).toBe(true);
    expect(pool.stats()).toMatchObject({ activeContexts: 0, waiting: 0 });
  });

  test('a job past its deadline fails and frees its slot', async () => {
    const error = await failure(pool.withPage({ timeoutMs: 300 }, ({ page }) => page.waitForTimeout(30_000)));
    expect(error.message).toBe('Browser rendering timed out after 300 ms');
    expect(pool.stats().activeContexts).toBe(0);
  });

  test('a job cancelled while it waits for a slot leaves the queue', async () => {
    const held = [gate(), gate()];
    const holders = held.map((g) => pool.withPage({}, () => g.opened));
    expect(await eventually(() => pool.stats().activeContexts === 2)).toBe(true);
    const controller = new AbortController();
    const waiting = pool.withPage({ signal: controller.signal }, async () => 'ran');
    expect(await eventually(() => pool.stats().waiting === 1)).toBe(true);
    controller.abort();
    expect((await failure(waiting)).message).toBe('Browser rendering was cancelled');
    expect(pool.stats().waiting).toBe(0);
    for (const g of held) g.open();
    await Promise.all(holders);
  });
});

test('the browser is replaced after recycleAfterPages pages, once its jobs are done', async () => {
  const pool = testBrowserPool({ browser: { recycleAfterPages: 2 } });
  try {
    const pids: Array<number | null> = [];
    for (let i = 0; i < 3; i++)
      await pool.withPage({}, async () => {
        pids.push(pool.stats().pid);
      });
    expect(pids[0]).toBe(pids[1]!);
    expect(pids[2]).not.toBe(pids[0]!);
    expect(pool.stats().launches).toBe(2);
    expect(await eventually(() => !processAlive(pids[0]!))).toBe(true);
  } finally {
    await pool.close();
  }
});

test('a browser killed mid-job fails that job clearly; the next job gets a new browser', async () => {
  const pool = testBrowserPool();
  try {
    await pool.withPage({}, async () => {});
    const first = pool.stats().pid!;
    const error = await failure(
      pool.withPage({}, async ({ page }) => {
        process.kill(first, 'SIGKILL');
        await page.waitForTimeout(10_000);
      }),
    );
    expect(error.message).toBe(
      'Failed to fetch URL: the browser closed unexpectedly while rendering the page (it is restarted for the next request)',
    );
    const title = await pool.withPage({}, async ({ page }) => {
      await page.goto(site.at('/'));
      return page.title();
    });
    expect(title).toBe('Pool');
    expect(pool.stats().launches).toBe(2);
    expect(pool.stats().pid).not.toBe(first);
  } finally {
    await pool.close();
  }
});

test('close ends the browser process and refuses new jobs', async () => {
  const pool = testBrowserPool();
  await pool.withPage({}, async () => {});
  const pid = pool.stats().pid!;
  await pool.close();
  expect(await eventually(() => !processAlive(pid))).toBe(true);
  expect((await failure(pool.withPage({}, async () => {}))).message).toBe(
    'Browser rendering is not available: the server is shutting down',
  );
});

test('with warmSpare off, no context stays open between jobs', async () => {
  const pool = testBrowserPool({ browser: { warmSpare: false } });
  try {
    await pool.withPage({}, async () => {});
    await pool.withPage({}, async () => {});
    expect(pool.stats()).toMatchObject({ pagesServed: 2, openContexts: 0 });
  } finally {
    await pool.close();
  }
});

test('blocked resource types are never requested; the page still loads', async () => {
  const pool = testBrowserPool({ browser: { blockResources: ['image', 'font'] } });
  const media = startFixtureSite({
    '/': '<title>Pictures</title><img src="/photo.png"><script src="/app.js"></script>',
    '/app.js': { body: 'document.title = "Scripted"', headers: { 'content-type': 'text/javascript' } },
    '/photo.png': { body: 'png', headers: { 'content-type': 'image/png' } },
  });
  try {
    const title = await pool.withPage({}, async ({ page }) => {
      await page.goto(media.at('/'), { waitUntil: 'load' });
      return page.title();
    });
    expect(title).toBe('Scripted');
    expect(media.hits).toContain('/app.js');
    expect(media.hits).not.toContain('/photo.png');
  } finally {
    await pool.close();
    await media.stop();
  }
});

test('without Chromium a job fails with how to install it, and nothing is launched', async () => {
  const pool = testBrowserPool({ browser: { executablePath: '/nonexistent/chromium' } });
  const error = await failure(pool.withPage({}, async () => {}));
  expect(error.status).toBe(400);
  expect(error.message).toContain('apt-get install -y chromium');
  expect(pool.unavailableReason()).toContain('/nonexistent/chromium');
  expect(pool.stats().launches).toBe(0);
});

describe('SSRF guard on every connection of the page', () => {
  // 127.0.0.1 (the fixture site) plays a public server; everything else is refused as usual, so a
  // broken guard can never reach beyond this machine.
  const policy: AddressPolicy = (ip) => (ip === '127.0.0.1' ? null : (forbiddenAddressReason(ip) ?? 'test safety net: only loopback'));
  const hits: string[] = [];
  let internal: ReturnType<typeof Bun.serve>;
  let page: FixtureSite;
  let pool: BrowserPool;

  beforeAll(() => {
    internal = Bun.serve({
      hostname: '127.0.0.2',
      port: 0,
      fetch: (req) => {
        hits.push(new URL(req.url).pathname);
        return new Response('internal secret');
      },
    });
    const inside = `127.0.0.2:${internal.port}`;
    page = startFixtureSite({
      '/': `<title>Guarded</title><p id="out">waiting</p>
        <img src="http://${inside}/pixel.png"><img src="/bounce">
        <iframe src="http://intranet.test:${internal.port}/frame"></iframe>
        <script>
          const report = (name, value) => document.getElementById('out').insertAdjacentText('beforeend', ' ' + name + '=' + value);
          fetch('http://${inside}/api').then((r) => r.text()).then((t) => report('direct', t), () => report('direct', 'blocked'));
          fetch('/bounce').then((r) => r.text()).then((t) => report('redirect', t), () => report('redirect', 'blocked'));
          const ws = new WebSocket('ws://${inside}/socket');
          ws.onerror = () => report('ws', 'blocked');
        </script>`,
      '/bounce': () =>
        new Response(null, { status: 302, headers: { location: `http://${inside}/redirected`, 'access-control-allow-origin': '*' } }),
      '/to-inside': () => new Response(null, { status: 302, headers: { location: `http://${inside}/landing` } }),
    });
    pool = testBrowserPool({ fetch: { allowPrivateNetwork: false, resolve: { 'intranet.test': '127.0.0.2' } } }, { addressPolicy: policy });
  });
  afterAll(async () => {
    await pool.close();
    await page.stop();
    await internal.stop(true);
  });

  test('subresources, fetch, redirect hops, frames and sockets to internal addresses are refused', async () => {
    const { text, failures } = await pool.withPage({}, async (session) => {
      await session.page.goto(page.at('/'));
      await session.page.waitForFunction(
        () => ['direct=', 'redirect=', 'ws='].every((k) => document.getElementById('out')!.textContent!.includes(k)),
        null,
        { timeout: 10_000 },
      );
      return { text: await session.page.textContent('#out'), failures: [...session.failures] };
    });
    expect(text).toContain('direct=blocked');
    expect(text).not.toContain('internal secret');
    expect(text).toContain('ws=blocked');
    expect(hits).toEqual([]);
    const inside = `127.0.0.2:${internal.port}`;
    const urls = failures.map((f) => f.url);
    expect(urls).toContain(`http://${inside}/pixel.png`);
    expect(urls).toContain(`http://${inside}/redirected`);
    expect(urls).toContain(`http://intranet.test:${internal.port}/frame`);
    expect(urls).toContain(`https://${inside}`);
    for (const f of failures) expect(f).toMatchObject({ refused: true, reason: 'address 127.0.0.2 is not allowed (loopback address)' });
    // Redirected fetch: the refused hop is answered 403 by the guard, so the page never sees the secret.
    expect(text).not.toContain('redirect=internal secret');
  });

  test('a navigation redirected into an internal address ends at the guard, not the target', async () => {
    const { status, failures } = await pool.withPage({}, async (session) => {
      const response = await session.page.goto(page.at('/to-inside'));
      return { status: response?.status(), failures: [...session.failures] };
    });
    expect(status).toBe(403);
    // A self-hosted pool records the setting that would allow the address, apart from the reason.
    expect(failures).toContainEqual({
      url: `http://127.0.0.2:${internal.port}/landing`,
      reason: 'address 127.0.0.2 is not allowed (loopback address)',
      refused: true,
      hint: 'set fetch.allowPrivateNetwork = true (or TRAWL_FETCH_ALLOW_PRIVATE_NETWORK=true) to allow private addresses',
    });
    expect(hits).toEqual([]);
  });
});
