/**
 * A browser context ready for one job: its own guard proxy (always: it enforces the render size
 * limits, and the SSRF guard when that is on, and chains to the job's outbound proxy), the
 * options every job gets whatever it asks for, WebRTC closed, resource blocking, and one open page. The pool
 * opens one ahead of time (its warm spare) so a job does not wait for Chromium to start a renderer.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { TrawlConfig } from '../config-schema.ts';
import type { AddressPolicy } from '../net/address-guard.ts';
import { blockResourceTypes, closeWebRtc } from './guard.ts';
import { startGuardProxy, type GuardProxy, type ProxyLimits } from './proxy.ts';

export interface PreparedContext {
  context: BrowserContext;
  page: Page;
  proxy: GuardProxy;
}

export interface ContextRules {
  fetch: Readonly<TrawlConfig['fetch']>;
  /** Null when private networks are allowed: the proxy then checks no address. */
  policy: AddressPolicy | null;
  limits: ProxyLimits;
  /** Ends the guard's refusals (core/net/address-guard.ts `privateNetworkHint`). */
  refusalHint: string;
  blockResources: ReadonlySet<string>;
  /** Used unless the job's options name one (mobile emulation does). */
  userAgent: string;
  /** The outbound proxy the job goes through (chained behind the guard proxy); null: direct. */
  upstream: string | null;
}

export async function openContext(
  browser: Browser,
  options: BrowserContextOptions | undefined,
  rules: ContextRules,
): Promise<PreparedContext> {
  const proxy = await startGuardProxy(rules.fetch, rules.policy, rules.upstream, rules.refusalHint, rules.limits);
  let context: BrowserContext | undefined;
  try {
    context = await browser.newContext({
      userAgent: rules.userAgent,
      ...options,
      // Chromium sends loopback straight out unless told otherwise; through the guard it goes.
      proxy: { server: proxy.url, bypass: '<-loopback>' },
      serviceWorkers: 'block',
      acceptDownloads: false, // a page must not fill the disk with files
    });
    await closeWebRtc(context);
    await blockResourceTypes(context, rules.blockResources);
    return { context, page: await context.newPage(), proxy };
  } catch (err) {
    await context?.close().catch(() => {});
    await proxy.close();
    throw err;
  }
}
