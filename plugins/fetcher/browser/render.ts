/**
 * One rendered page, start to finish, inside a pool session: navigate, let the page settle, run
 * the actions, take the screenshot, and hand the rendered DOM to the pipeline as the response —
 * status and headers of the page's latest document response, the serialised DOM as the body — so
 * document.html parses it like any fetched page and every format works on rendered pages.
 */
import type { Page, Response } from 'playwright-core';
import { decodeText, fetchFailed, isTextual, mediaTypeOf, SCREENSHOT, takeScreenshot, toBase64 } from '../../../core/kit.ts';
import type { ActionCatalog, BrowserSession, FetchedResponse, PageDocument } from '../../../core/kit.ts';
import { runActions } from './actions.ts';
import { assertDelivered, navigate } from './navigate.ts';
import { trackNetwork, type SettleOptions } from './settle.ts';

export const PLUGIN_ID = 'fetcher.browser';

export interface RenderSettings extends SettleOptions {
  actionTimeoutMs: number;
  maxScreenshotHeight: number;
  navigationTimeoutMs: number;
  maxBodyBytes: number;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml', '']);
const EMPTY = new Uint8Array(0);
/** How many refused sub-requests a warning lists by URL. */
const LISTED_REFUSALS = 3;

export const wantsScreenshot = (doc: PageDocument) => doc.job.request.screenshot || doc.job.formats.includes('screenshot');

function isMainDocument(response: Response, page: Page): boolean {
  try {
    return response.request().isNavigationRequest() && response.frame() === page.mainFrame();
  } catch {
    return false;
  }
}

/** The DOM as HTML; a navigation still in progress (a submitted form) is waited for once. */
async function serialise(page: Page): Promise<string> {
  try {
    return await page.content();
  } catch (err) {
    if (page.isClosed()) throw err;
    await page.waitForLoadState('load').catch(() => {});
    return page.content();
  }
}

async function snapshot(page: Page, main: Response, maxBytes: number): Promise<FetchedResponse> {
  const headers = await main.allHeaders().catch(() => main.headers());
  const declared = headers['content-type'];
  const status = main.status();
  if (HTML_TYPES.has(mediaTypeOf(declared, EMPTY).replace('application/octet-stream', ''))) {
    const text = await serialise(page);
    const body = new TextEncoder().encode(text);
    if (body.byteLength > maxBytes) throw fetchFailed(`rendered page exceeds ${maxBytes} bytes`);
    return { status, headers, body, finalUrl: page.url(), mediaType: 'text/html', text, charset: 'utf-8' };
  }
  // Not a page (JSON, text, an image …): Chromium's viewer markup is not the content, the bytes are.
  if (Number(headers['content-length']) > maxBytes) throw fetchFailed(`response body exceeds ${maxBytes} bytes`);
  const body = new Uint8Array(await main.body());
  if (body.byteLength > maxBytes) throw fetchFailed(`response body exceeds ${maxBytes} bytes`);
  const mediaType = mediaTypeOf(declared, body);
  const response: FetchedResponse = { status, headers, body, finalUrl: main.url(), mediaType };
  if (isTextual(mediaType)) Object.assign(response, decodeText(body, { contentType: declared, sniffMarkup: /xml/.test(mediaType) }));
  return response;
}

export async function renderInto(
  doc: PageDocument,
  session: BrowserSession,
  catalog: ActionCatalog,
  settings: RenderSettings,
): Promise<void> {
  const { page, failures } = session;
  const { job } = doc;
  const crash = new Promise<never>((_, reject) =>
    page.once('crash', () => reject(fetchFailed('the page crashed the browser tab (out of memory?)'))),
  );
  crash.catch(() => {});
  const network = trackNetwork(page);
  const settle = () => network.settle(settings);
  let main: Response | null = null;
  page.on('response', (response) => {
    if (isMainDocument(response, page)) main = response;
  });

  const work = async () => {
    const first = await navigate(page, job.url, failures, settings.navigationTimeoutMs);
    main ??= first;
    await settle();
    if (job.request.actions?.length) {
      const results = await runActions(page, job.request.actions, catalog, {
        timeoutMs: settings.actionTimeoutMs,
        maxOutputBytes: settings.maxBodyBytes,
        ignoreErrors: job.request.ignoreActionErrors ?? false,
        signal: job.signal,
        settle,
      });
      doc.actions = {
        ...(results.jsResults ? { jsResults: results.jsResults } : {}),
        ...(results.screenshots ? { screenshots: results.screenshots } : {}),
        ...(results.errors.length ? { errors: results.errors } : {}),
      };
      if (results.errors.length)
        doc.warn('fetch', PLUGIN_ID, `${results.errors.length} action(s) failed and were skipped (see action_errors)`);
    }
    if (wantsScreenshot(doc)) {
      const shot = await takeScreenshot(page, { fullPage: true, maxHeight: settings.maxScreenshotHeight });
      const data = toBase64(shot.png);
      doc.data.set(SCREENSHOT, data);
      if (job.request.screenshot) doc.screenshot = data;
      if (shot.cut) doc.warn('fetch', PLUGIN_ID, `The screenshot stops at ${settings.maxScreenshotHeight} px; the page is taller`);
    }
    assertDelivered(main, failures); // an action may have navigated somewhere refused
    doc.response = await snapshot(page, main, settings.maxBodyBytes);
  };
  await Promise.race([work(), crash]);

  const blocked = failures.filter((f) => f.refused);
  if (blocked.length) {
    const listed = blocked
      .slice(0, LISTED_REFUSALS)
      .map((r) => `${r.url} (${r.reason})`)
      .join('; ');
    const more = blocked.length > LISTED_REFUSALS ? ` and ${blocked.length - LISTED_REFUSALS} more` : '';
    doc.warn('fetch', PLUGIN_ID, `Blocked ${blocked.length} request(s) of the page: ${listed}${more}`);
  }
}
