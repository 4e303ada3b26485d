/**
 * Waiting for a page to settle after navigation and after each action: until the load event and
 * until no request has been in flight for a short quiet period, but never longer than a cap — a
 * page that polls, streams or keeps a socket open is taken as it is when the cap is reached.
 */
import type { Page } from 'playwright-core';

export interface SettleOptions {
  /** Upper bound for one wait. */
  settleTimeoutMs: number;
  /** How long the network must stay idle. */
  networkQuietMs: number;
}

export interface NetworkTracker {
  settle(options: SettleOptions): Promise<void>;
}

const POLL_MS = 25;

export function trackNetwork(page: Page): NetworkTracker {
  let inflight = 0;
  let lastActivity = performance.now();
  const begin = () => {
    inflight++;
    lastActivity = performance.now();
  };
  const end = () => {
    inflight = Math.max(0, inflight - 1);
    lastActivity = performance.now();
  };
  page.on('request', begin);
  page.on('requestfinished', end);
  page.on('requestfailed', end);

  const quiet = async (quietMs: number, deadline: number) => {
    while (performance.now() < deadline && !page.isClosed()) {
      if (inflight === 0 && performance.now() - lastActivity >= quietMs) return;
      await Bun.sleep(POLL_MS);
    }
  };

  return {
    async settle({ settleTimeoutMs, networkQuietMs }) {
      const deadline = performance.now() + settleTimeoutMs;
      // The quiet period starts now, not at the last request: a request the last action caused
      // (the navigation of a submitted form) may not have been reported yet.
      lastActivity = performance.now();
      await quiet(networkQuietMs, deadline);
      // A navigation started by the last action (a form submit, say) has a new document to load.
      const left = Math.max(0, deadline - performance.now());
      if (left > 0) await page.waitForLoadState('load', { timeout: left }).catch(() => {});
    },
  };
}
