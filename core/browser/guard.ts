/**
 * The address rules the browser's guard proxy applies to every connection a page opens: host
 * names refused by name (metadata services, localhost), IP literals and resolved addresses checked
 * with the same policy, `fetch.resolve` overrides and taint rule as the HTTP client. The check runs
 * inside the socket's lookup, so the address checked is the address connected to.
 *
 * WebRTC is closed in every frame before page scripts run: its STUN/TURN traffic is UDP, which the
 * guard proxy (TCP only) never sees, so a page could otherwise reach any address with it.
 *
 * Also the optional blocking of resource types (images, fonts, media), which needs Playwright's
 * request interception because only the browser knows what a request is for.
 */
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { BrowserContext } from 'playwright-core';
import type { TrawlConfig } from '../config-schema.ts';
import type { AddressPolicy } from '../net/http-client.ts';
import { ForbiddenAddressError } from '../net/http-support.ts';
import { forbiddenHostnameReason, isIpLiteral } from '../net/ssrf.ts';

export interface AddressGuard {
  /** Why a host must not be contacted before any lookup (by name, or as a literal), or null. */
  hostRefusal(host: string): ForbiddenAddressError | null;
  /** A socket lookup that applies the overrides and refuses forbidden answers. */
  lookupFor(port: number): LookupFunction;
}

export function createAddressGuard(fetch: Readonly<TrawlConfig['fetch']>, policy: AddressPolicy): AddressGuard {
  const overrides = new Map(Object.entries(fetch.resolve).map(([k, v]) => [k.toLowerCase(), v]));
  const refuse = (address: string, reason: string) => new ForbiddenAddressError(address, reason);

  return {
    hostRefusal(raw) {
      const host = raw.replace(/^\[|\]$/g, '').toLowerCase();
      const byName = forbiddenHostnameReason(host);
      if (byName) return refuse(host, byName);
      if (!isIpLiteral(host)) return null;
      const reason = policy(host);
      return reason ? refuse(host, reason) : null;
    },
    lookupFor: (port) => (hostname, options, callback) => {
      const host = hostname.toLowerCase();
      const target = overrides.get(`${host}:${port}`) ?? overrides.get(host) ?? hostname;
      dns.lookup(target, { family: options.family ?? 0, all: true }, (err, addresses) => {
        if (err) return callback(err, '', 0);
        // Any forbidden answer taints the name: mixing public and internal answers is what a
        // rebinding attacker serves.
        for (const { address } of addresses) {
          const reason = policy(address);
          if (reason) return callback(refuse(address, reason) as unknown as NodeJS.ErrnoException, '', 0);
        }
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
        callback(null, first.address, first.family);
      });
    },
  };
}

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
