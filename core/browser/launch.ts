/**
 * Starting Chromium for the pool: Debian's /usr/bin/chromium (never a downloaded browser) with
 * flags that suit a closed network, `fetch.resolve` overrides handed to Chromium's own resolver so
 * the browser reaches the same hosts the HTTP client does, and the message that tells an operator
 * how to install a missing browser.
 */
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import type { TrawlConfig } from '../config-schema.ts';

export type BrowserConfig = TrawlConfig['browser'];

/**
 * Chromium otherwise phones home (component updates, sync, field trials, safe-browsing lists) and
 * tries QUIC and WebRTC paths that bypass request interception. Playwright creates and removes a
 * fresh `--user-data-dir` for every launch itself (it refuses one passed here).
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox', // Trawl usually runs as root in a container, where the sandbox cannot start
  '--disable-gpu',
  '--disable-dev-shm-usage', // containers give /dev/shm 64 MB; Chromium crashes on big pages there
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-domain-reliability',
  '--disable-breakpad',
  '--mute-audio',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/** Null when Chromium can be started; otherwise what is missing and how to install it. */
export function chromiumMissingReason(executablePath: string): string | null {
  if (existsSync(executablePath)) return null;
  return (
    `Browser rendering needs Chromium, which is not installed at ${executablePath}. ` +
    'Install the Debian package with `apt-get install -y chromium` (or set browser.executablePath).'
  );
}

/** `fetch.resolve` as Chromium host-resolver rules (`MAP host[:port] address`). */
export function hostResolverRules(resolve: Readonly<Record<string, string>>): string | null {
  const rules = Object.entries(resolve).map(([host, address]) => `MAP ${host} ${address.includes(':') ? `[${address}]` : address}`);
  return rules.length ? rules.join(', ') : null;
}

/**
 * A renderer's JavaScript heap stops at half its memory ceiling, so a script allocating without end
 * crashes its own tab (out of memory) well before the pool's watch has to kill it; the DOM and
 * layout live outside that heap, which is what the watch is for.
 */
function heapCap(config: BrowserConfig): string[] {
  return config.maxRendererMb > 0 ? [`--js-flags=--max-old-space-size=${Math.max(64, Math.floor(config.maxRendererMb / 2))}`] : [];
}

export function chromiumArgs(config: BrowserConfig, resolve: Readonly<Record<string, string>>): string[] {
  const rules = hostResolverRules(resolve);
  return [...CHROMIUM_FLAGS, ...heapCap(config), ...(rules ? [`--host-resolver-rules=${rules}`] : []), ...config.args];
}

export interface LaunchedBrowser {
  browser: Browser;
  /** Process id of the browser (Playwright does not expose it for in-process launches). */
  pid: number | null;
}

export async function launchChromium(config: BrowserConfig, resolve: Readonly<Record<string, string>>): Promise<LaunchedBrowser> {
  // Loaded on first use: playwright-core takes most of a second to import, which every boot and
  // CLI run would pay even when nothing is rendered.
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: config.executablePath,
    args: chromiumArgs(config, resolve),
    headless: true,
    chromiumSandbox: false,
    timeout: config.launchTimeoutMs,
    // Trawl shuts the pool down itself; Playwright's own signal handlers would race it.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  return { browser, pid: await browserPid(browser) };
}

async function browserPid(browser: Browser): Promise<number | null> {
  try {
    const cdp = await browser.newBrowserCDPSession();
    const info = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: Array<{ type: string; id: number }> };
    await cdp.detach().catch(() => {});
    return info.processInfo.find((p) => p.type === 'browser')?.id ?? null;
  } catch {
    return null;
  }
}
