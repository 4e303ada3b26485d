/**
 * The browser fetcher: renders pages in Chromium through the core browser pool. Listed before the
 * HTTP fetcher, it takes the jobs that need a browser (actions, screenshot, the screenshot format,
 * mobile, `render: true`), and after a plain fetch it asks to render again when the page is a
 * nearly empty app shell (automatic JavaScript rendering; `autoRender`, on by default). Without
 * Chromium installed, jobs that need it fail with an install hint and everything else works.
 */
import type { BrowserContextOptions } from 'playwright-core';
import { z } from 'zod';
import { browserNeeds, configInvalid, DEFAULT_MAX_SCREENSHOT_HEIGHT, definePlugin, fetchProxy, Tokens } from '../../../core/kit.ts';
import type { Job } from '../../../core/kit.ts';
import { detectAppShell } from './app-shell.ts';
import { PLUGIN_ID, renderInto } from './render.ts';
import { browserApi } from './openapi.ts';

const DEFAULT_DEVICE = 'Pixel 7';

const options = z.strictObject({
  autoRender: z
    .boolean()
    .default(true)
    .describe(
      'Render a page again in the browser when the plain fetch yields nearly no text and an app shell (requests can opt out with `render: false`).',
    ),
  autoRenderMaxWords: z
    .number()
    .int()
    .min(0)
    .max(1000)
    .default(25)
    .describe('"Nearly no text": at most this many words of visible body text.'),
  settleTimeoutMs: z
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(3000)
    .describe('After navigation and after each action: the longest wait for the load event and a quiet network.'),
  networkQuietMs: z
    .number()
    .int()
    .min(0)
    .max(10_000)
    .default(200)
    .describe('How long no request may be in flight for the page to count as settled.'),
  actionTimeoutMs: z
    .number()
    .int()
    .min(100)
    .max(120_000)
    .default(5000)
    .describe('How long an action waits for its selector or script before it fails.'),
  viewport: z
    .strictObject({
      width: z.number().int().min(200).max(4000).default(1280),
      height: z.number().int().min(200).max(4000).default(800),
    })
    .prefault({})
    .describe('Desktop viewport in CSS pixels.'),
  userAgent: z.string().min(1).optional().describe('Desktop user agent; default: the browser\'s own, without "Headless".'),
  mobileDevice: z
    .string()
    .min(1)
    .default(DEFAULT_DEVICE)
    .describe('Device emulated for `mobile: true` (a Playwright device name): viewport, pixel ratio, user agent, touch.'),
  maxScreenshotHeight: z
    .number()
    .int()
    .min(100)
    .max(100_000)
    .default(DEFAULT_MAX_SCREENSHOT_HEIGHT)
    .describe('Full-page screenshots stop at this height in CSS pixels.'),
});

type Options = z.output<typeof options>;

/** The request fields this fetcher provides; setting one with the plugin disabled is a 400 naming it. */
const requestFields = {
  actions: {
    schema: z
      .array(z.looseObject({ type: z.string().min(1) }))
      .max(50)
      .optional(),
  },
  screenshot: { schema: z.boolean().default(false) },
  mobile: { schema: z.boolean().default(false) },
  render: {
    schema: z
      .boolean()
      .optional()
      .describe(
        'true: render the page in the browser (runs its JavaScript). false: never render, not even automatically. Unset: render when the job needs it (actions, screenshot, mobile) or when the plain fetch yields an empty app shell.',
      ),
  },
  // Only tunes how actions run, so setting it alone asks nothing of a disabled browser.
  ignoreActionErrors: {
    schema: z
      .boolean()
      .optional()
      .describe('Keep going when an action fails (the failure is listed with the action errors of the result) instead of answering 422.'),
    needsPlugin: false,
  },
};

/** Playwright's device list, loaded with playwright-core on first use (it is slow to import). */
async function device(name: string): Promise<BrowserContextOptions | undefined> {
  const { devices } = await import('playwright-core');
  const found = devices[name];
  if (!found) return undefined;
  const { defaultBrowserType: _unused, ...options } = found;
  return options;
}

async function contextFor(job: Job, opts: Options): Promise<BrowserContextOptions> {
  const headers = job.request.headers ? { extraHTTPHeaders: job.request.headers } : {};
  if (!job.request.mobile) return { viewport: opts.viewport, ...(opts.userAgent ? { userAgent: opts.userAgent } : {}), ...headers };
  return { ...(await device(opts.mobileDevice))!, ...headers };
}

export const browserFetcher = definePlugin({
  kind: 'fetcher',
  name: 'browser',
  description:
    'Renders pages in Chromium (JavaScript, actions, screenshots, mobile emulation); also re-renders static pages that turn out to be empty app shells.',
  provides: ['fetch:render', 'fetch:screenshot', 'fetch:mobile', 'fetch:actions'],
  options,
  api: { ...browserApi, requestFields },
  // Runs in the content worker after detect; whether Chromium is there is asked on the server thread (canRefetch).
  rerender(doc, opts) {
    if (!opts.autoRender || doc.job.request.render === false) return false;
    if (doc.type !== 'document.html' || !doc.dom) return false;
    return detectAppShell(doc.dom, opts.autoRenderMaxWords).shell;
  },
  async setup(opts, ctx) {
    // The default device is known to exist; only a configured one is worth importing Playwright for at boot.
    if (opts.mobileDevice !== DEFAULT_DEVICE && !(await device(opts.mobileDevice))) {
      throw configInvalid(
        `Invalid configuration at plugins.fetcher.browser.mobileDevice: unknown device "${opts.mobileDevice}" (Playwright device names, e.g. "Pixel 7", "iPhone 15")`,
      );
    }
    const pool = ctx.resolve(Tokens.Browser);
    const catalog = ctx.resolve(Tokens.Actions);
    const missing = pool.unavailableReason();
    if (missing) ctx.logger.warn(`${missing} Until then, requests that need the browser are refused; everything else works.`);
    return {
      matches: (job) => browserNeeds(job.request).length > 0,

      canRefetch: () => !pool.unavailableReason(),
      renders: true,

      async fetch(doc) {
        const { job } = doc;
        const settings = {
          ...opts,
          navigationTimeoutMs: job.request.timeoutMs ?? ctx.config.fetch.timeoutMs,
          maxBodyBytes: ctx.config.fetch.maxBodyBytes,
        };
        const page = {
          context: await contextFor(job, opts),
          signal: job.signal,
          timeoutMs: job.request.timeoutMs,
          proxy: fetchProxy(doc),
          target: job.url,
        };
        await pool.withPage(page, (session) => renderInto(doc, session, catalog, settings));
        doc.recordResponse(doc.response!, PLUGIN_ID);
        doc.metadata.rendered = true;
      },
    };
  },
});
