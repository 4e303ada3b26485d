/**
 * End to end with real Chromium: browser actions through POST /v1/scrape — click, type + press,
 * scroll, wait, executeJavascript and screenshot actions — plus the documented statuses: 400 for
 * a request whose actions are invalid (before anything is fetched), 422 for an action that fails,
 * and `ignore_action_errors` to carry on past failures.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { pngSize, requireChromium } from '../../core/browser/testing.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const fixture = (name: string) => Bun.file(new URL(`../fixtures/browser/${name}`, import.meta.url)).text();
let site: FixtureSite;
let server: TestServer;
const scrape = (path: string, body: Record<string, unknown>) =>
  server.post('/v1/scrape', { url: site.at(path), formats: ['markdown'], ...body });

beforeAll(async () => {
  requireChromium();
  site = startFixtureSite({
    '/reveal': await fixture('reveal.html'),
    '/search': await fixture('search.html'),
    '/results': (req) => {
      const q = new URL(req.url).searchParams.get('q') ?? '';
      return new Response(
        `<html><head><title>Results</title></head><body><h1>Results for ${Bun.escapeHTML(q)}</h1><p>3 tide stations match.</p></body></html>`,
        { headers: { 'content-type': 'text/html' } },
      );
    },
    '/lazy': await fixture('lazy.html'),
    '/api/chapter.json': () => Response.json({ title: 'Chapter two', text: 'The keeper lit the lamp one last time.' }),
    '/late': await fixture('late.html'),
    '/prices': await fixture('prices.html'),
  });
  server = await startTrawlServer({
    overrides: { storage: { cacheTtlSeconds: 0 }, plugins: { fetcher: { browser: { actionTimeoutMs: 2500 } } } },
  });
});
afterAll(async () => {
  await server?.stop();
  await site?.stop();
});

describe('actions change what is scraped', () => {
  test('click reveals hidden content', async () => {
    const before = await scrape('/reveal', { render: true });
    expect(before.body.markdown).not.toContain('cardamom');
    const after = await scrape('/reveal', { actions: [{ type: 'click', selector: '#show-secret' }] });
    expect(after.status).toBe(200);
    expect(after.body.markdown).toContain('The secret ingredient is a pinch of cardamom.');
  });

  test('type + press Enter submits the form; the result page is what is scraped', async () => {
    const res = await scrape('/search', {
      actions: [
        { type: 'type', selector: '#q', value: 'Aberdeen' },
        { type: 'press', key: 'Enter' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.markdown).toContain('# Results for Aberdeen');
    expect(res.body.metadata.final_url).toBe(site.at('/results?q=Aberdeen'));
    expect(res.body.metadata.title).toBe('Results');
  });

  test('scroll triggers lazy loading', async () => {
    const still = await scrape('/lazy', { render: true });
    expect(still.body.markdown).not.toContain('Chapter two');
    const scrolled = await scrape('/lazy', { actions: [{ type: 'scroll', direction: 'down' }] });
    expect(scrolled.body.markdown).toContain('## Chapter two');
    expect(scrolled.body.markdown).toContain('The keeper lit the lamp one last time.');
  });

  test('wait for a selector holds the scrape until the element is there', async () => {
    const res = await scrape('/late', { actions: [{ type: 'wait', selector: '.notice' }] });
    expect(res.body.markdown).toContain('The north pier is closed for repairs.');
    const paused = await scrape('/prices', {
      actions: [
        { type: 'wait', milliseconds: 50 },
        { type: 'wait', ms: 50 },
      ],
    });
    expect(paused.status).toBe(200);
  });

  test('executeJavascript results land in js_results, in order; screenshot actions in screenshots', async () => {
    const res = await scrape('/prices', {
      actions: [
        { type: 'executeJavascript', code: 'document.title' },
        { type: 'screenshot' },
        { type: 'click', selector: '#add' },
        { type: 'executeJavascript', code: 'return [...document.querySelectorAll("#prices li")].map((li) => Number(li.textContent))' },
        { type: 'executeJavascript', code: 'undefined' },
        { type: 'screenshot', full_page: true },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.js_results).toEqual(['Ferry prices', [12, 30, 45], null]);
    expect(res.body.screenshots.map((s: { index: number }) => s.index)).toEqual([1, 5]);
    for (const shot of res.body.screenshots) expect(pngSize(new Uint8Array(Buffer.from(shot.data, 'base64'))).width).toBe(1280);
    expect(res.body.markdown).toContain('- 45');
  });
});

describe('documented statuses', () => {
  test.each([
    [
      'an unknown type',
      [
        { type: 'wait', ms: 1 },
        { type: 'hover', selector: 'a' },
      ],
      'Invalid field actions[1].type: unknown action "hover". Valid actions: click, type, scroll, wait, screenshot, press, executeJavascript',
    ],
    ['a missing field', [{ type: 'click' }], 'Missing required field: actions[0].selector'],
    ['a missing type', [{ selector: '#add' }], 'Missing required field: actions[0].type'],
    ['a bad key', [{ type: 'click', selector: '#add', delay: 5 }], 'Unknown field: actions[0].delay'],
    ['a key that cannot be pressed', [{ type: 'press', key: 'F5' }], 'Invalid field actions[0].key:'],
    [
      'a wait without a duration or selector',
      [{ type: 'wait' }],
      'Invalid field actions[0]: needs ms (or milliseconds), selector, or both',
    ],
    [
      'code that is not JavaScript',
      [{ type: 'executeJavascript', code: 'return (' }],
      'Invalid field actions[0].code: is not valid JavaScript',
    ],
    [
      'an action field of the wrong type, named as sent',
      [{ type: 'screenshot', full_page: 'yes' }],
      'Invalid field actions[0].full_page: Invalid input: expected boolean',
    ],
  ])('400 for %s, before anything is fetched', async (_label, actions, message) => {
    const hits = site.hits.length;
    const res = await scrape('/prices', { actions });
    expect(res.status).toBe(400);
    expect(res.body.error).toStartWith(message);
    expect(site.hits.length).toBe(hits);
  });

  test('400 for render: false with something that needs the browser', async () => {
    const res = await scrape('/prices', { render: false, screenshot: true, actions: [{ type: 'wait', ms: 1 }] });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Invalid field render: false conflicts with actions, screenshot, which need the browser');
  });

  test('422 naming the index for an action that fails', async () => {
    const missing = await scrape('/prices', {
      actions: [
        { type: 'wait', ms: 1 },
        { type: 'click', selector: '#nowhere' },
      ],
    });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ error: 'Action actions[1] (click) failed: "#nowhere" did not match a visible element within 2500 ms' });
    const thrown = await scrape('/prices', { actions: [{ type: 'executeJavascript', code: 'throw new Error("no ferries today")' }] });
    expect(thrown.status).toBe(422);
    expect(thrown.body).toEqual({ error: 'Action actions[0] (executeJavascript) failed: the script threw Error: no ferries today' });
  });

  test('ignore_action_errors carries on and lists what failed', async () => {
    const res = await scrape('/prices', {
      ignore_action_errors: true,
      actions: [
        { type: 'click', selector: '#nowhere' },
        { type: 'executeJavascript', code: 'throw new Error("no ferries today")' },
        { type: 'click', selector: '#add' },
        { type: 'executeJavascript', code: 'document.querySelectorAll("#prices li").length' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.js_results).toEqual([null, 3]);
    expect(res.body.action_errors).toEqual([
      { index: 0, type: 'click', error: '"#nowhere" did not match a visible element within 2500 ms' },
      { index: 1, type: 'executeJavascript', error: 'the script threw Error: no ferries today' },
    ]);
    expect(res.body.warnings).toEqual(['fetcher.browser: 2 action(s) failed and were skipped (see action_errors)']);
    expect(res.body.markdown).toContain('- 45');
  });
});

test('OpenAPI documents every action, render, ignore_action_errors and the result fields the browser adds', async () => {
  const { components } = (await server.get('/openapi.json')).body;
  expect(components.schemas.Action.oneOf.map((a: { title: string }) => a.title)).toEqual([
    'click',
    'type',
    'scroll',
    'wait',
    'screenshot',
    'press',
    'executeJavascript',
  ]);
  expect(components.schemas.ScrapeRequest.properties.actions.items).toEqual({ $ref: '#/components/schemas/Action' });
  expect(Object.keys(components.schemas.ScrapeRequest.properties)).toEqual(expect.arrayContaining(['render', 'ignore_action_errors']));
  expect(Object.keys(components.schemas.ScrapeResult.properties)).toEqual(
    expect.arrayContaining(['screenshot', 'screenshots', 'js_results', 'action_errors']),
  );
  expect(components.schemas.Metadata.properties.rendered.type).toBe('boolean');
});
