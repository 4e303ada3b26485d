/**
 * One launched Chromium as the browser pool (pool.ts) tracks it, and what can be done to it without
 * the pool's bookkeeping: starting it with a user agent sites accept, waiting a bounded time for a
 * close, killing its process. Also the errors a job gets when its browser goes away.
 */
import type { Browser } from 'playwright-core';
import { fetchFailed, TrawlError } from '../errors.ts';
import { launchChromium, type BrowserConfig } from './launch.ts';

export interface Instance {
  browser: Browser;
  pid: number | null;
  /** Chromium's user agent without "Headless", which many sites answer with a block page. */
  userAgent: string;
  served: number;
  active: number;
  retiring: boolean;
  dead: boolean;
  closing?: Promise<void>;
}

/** How long a context or browser may take to close before it is killed. */
export const CLOSE_GRACE_MS = 5000;
export const shuttingDown = () => new TrawlError('unprocessable', 'Browser rendering is not available: the server is shutting down');
export const crashed = () => fetchFailed('the browser closed unexpectedly while rendering the page (it is restarted for the next request)');

export function settleWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  return Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    late,
  ]).finally(() => clearTimeout(timer));
}

/** Launches Chromium; a failure becomes the 422 that names why it did not start. */
export async function startInstance(config: BrowserConfig, resolve: Readonly<Record<string, string>>): Promise<Instance> {
  let launched: Awaited<ReturnType<typeof launchChromium>>;
  try {
    launched = await launchChromium(config, resolve);
  } catch (err) {
    const detail = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    throw new TrawlError('unprocessable', `Browser rendering is not available: Chromium failed to start (${detail})`, { cause: err });
  }
  const major = launched.browser.version().split('.')[0];
  const userAgent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
  return { ...launched, userAgent, served: 0, active: 0, retiring: false, dead: false };
}

export function killInstance(instance: Instance): void {
  instance.dead = true;
  if (instance.pid === null) return;
  try {
    process.kill(instance.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
