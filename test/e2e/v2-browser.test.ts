// The Firecrawl SDK's browser options against a real Trawl server and Chromium: every /v2 action
// type (wait, click, write, press, scroll, screenshot, scrape, executeJavascript), `waitFor`,
// `mobile`, the screenshot, question and attributes formats, and how their results come back.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import Firecrawl from '@mendable/firecrawl-js';
import { requireChromium } from '../../core/browser/testing.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const APP = `<!doctype html><html lang="en"><head><title>App</title><meta name="viewport" content="width=device-width"></head><body><main>
<h1>Harbour app</h1>
<p id="status">initial</p>
<button id="more" onclick="document.getElementById('status').textContent = 'clicked'">More</button>
<input id="q" onkeydown="if (event.key === 'Enter') document.getElementById('status').textContent = 'typed ' + this.value">
<p>The tide is high at noon every day in the harbour, and low at six in the evening.</p>
<a href="/next" data-kind="onward">Onward</a>
</main><script>document.title = 'App ' + (innerWidth < 600 ? 'mobile' : 'desktop');</script></body></html>`;

let site: FixtureSite;
let trawl: TestServer;

beforeAll(async () => {
  requireChromium();
  site = startFixtureSite({ '/app': APP });
  trawl = await startTrawlServer({ overrides: { storage: { cacheTtlSeconds: 0 } } });
});

afterAll(async () => {
  await trawl?.stop();
  await site?.stop();
});

test('actions, waitFor, mobile and the browser formats', async () => {
  const app = new Firecrawl({ apiKey: '', apiUrl: trawl.url });
  const doc = await app.scrape(site.at('/app'), {
    formats: [
      'markdown',
      'screenshot',
      { type: 'question', question: 'When is the tide high?' },
      { type: 'attributes', selectors: [{ selector: 'a', attribute: 'data-kind' }] },
    ],
    mobile: true,
    waitFor: 50,
    timeout: 30_000,
    actions: [
      { type: 'click', selector: '#more' },
      { type: 'scrape' },
      { type: 'click', selector: '#q' },
      { type: 'write', text: 'hello' },
      { type: 'press', key: 'Enter' },
      { type: 'wait', milliseconds: 10 },
      { type: 'scroll', direction: 'down' },
      { type: 'screenshot' },
      { type: 'executeJavascript', script: 'return document.getElementById("status").textContent' },
    ],
  });
  expect(doc.markdown).toContain('typed hello');
  expect(doc.metadata?.title).toBe('App mobile');
  expect(doc.screenshot).toStartWith('data:image/png;base64,iVBORw0KGgo');
  const actions = doc.actions as { screenshots: string[]; scrapes: unknown[]; javascriptReturns: unknown[] };
  expect(actions.screenshots).toHaveLength(1);
  expect(actions.screenshots[0]).toStartWith('data:image/png;base64,');
  expect(actions.scrapes).toEqual([{ url: site.at('/app'), html: expect.stringContaining('<p id="status">clicked</p>') }]);
  expect(actions.javascriptReturns).toEqual([{ type: 'string', value: 'typed hello' }]);
  expect(doc.answer).toContain('noon');
  expect(doc.attributes).toEqual([{ selector: 'a', attribute: 'data-kind', values: ['onward'] }]);
});

test('an action this server does not have is a 400 naming it', async () => {
  const app = new Firecrawl({ apiKey: '', apiUrl: trawl.url });
  await expect(app.scrape(site.at('/app'), { actions: [{ type: 'pdf' }] })).rejects.toMatchObject({
    status: 400,
    message:
      'Invalid field actions[0]: action type "pdf" is not supported (wait, click, screenshot, write, press, scroll, scrape, executeJavascript)',
  });
});
