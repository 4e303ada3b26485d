/**
 * Browser-side guards. The address rules every connection a page opens passes (through the guard
 * proxy) are core/net/address-guard.ts, the HTTP client's own.
 *
 * WebRTC is closed in every frame before page scripts run: its STUN/TURN traffic is UDP, which the
 * guard proxy (TCP only) never sees, so a page could otherwise reach any address with it.
 *
 * Also the optional blocking of resource types (images, fonts, media), which needs Playwright's
 * request interception because only the browser knows what a request is for.
 */
import type { BrowserContext } from 'playwright-core';

/** Aborts requests of the given Playwright resource types (`image`, `font`, `media`). */
export async function blockResourceTypes(context: BrowserContext, types: ReadonlySet<string>): Promise<void> {
  if (types.size === 0) return; // interception costs a round trip to this process per request
  await context.route('**/*', async (route) => {
    try {
      await (types.has(route.request().resourceType()) ? route.abort('blockedbyclient') : route.continue());
    } catch {
      // The context closed while the request was pending: nothing is left to answer.
    }
  });
}

/**
 * Removes the WebRTC interfaces from every frame and popup of the context before any page script
 * runs (Chromium's `--force-webrtc-ip-handling-policy` still lets a STUN server on loopback be
 * contacted). Every `RTC*` global goes, so no other interface hands a page a peer connection.
 */
export async function closeWebRtc(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    for (const name of Object.getOwnPropertyNames(globalThis)) {
      if (!/^(webkit)?RTC/.test(name)) continue;
      try {
        delete (globalThis as Record<string, unknown>)[name];
      } catch {
        // A non-configurable global cannot be removed; Chromium defines none of these that way.
      }
    }
  });
}
