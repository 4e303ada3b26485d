/**
 * Addresses Trawl will send notifications to (a registered webhook's `url`, a crawl's or batch's
 * `webhook_url`): one schema and one check for all of them. A receiver must be written out in full
 * (no `https://` guessed for a bare word, unlike a page to scrape), may not hold control characters
 * (WHATWG parsing would silently drop a tab or newline and store another address than the one
 * shown), and must pass the SSRF guard when it is registered, unless private networks are allowed:
 * a refusal then is a 400 now rather than failed deliveries later. Deliveries are checked again.
 */
import dns from 'node:dns/promises';
import { z } from 'zod';
import type { TrawlConfig } from '../config-schema.ts';
import { forbiddenAddressReason, forbiddenHostnameReason, isIpLiteral } from './ssrf.ts';

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

export const receiverUrlSchema = z
  .string()
  .max(2048)
  .transform((value, ctx) => {
    const trimmed = value.replace(/^ +| +$/g, '');
    if (!trimmed) ctx.addIssue({ code: 'custom', message: 'must not be empty' });
    else if (CONTROL_CHARACTER.test(trimmed)) ctx.addIssue({ code: 'custom', message: 'must not contain control characters (tab, newline, …)' });
    else {
      try {
        const url = new URL(trimmed);
        if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && /^https?:\/\//i.test(trimmed)) return url.href;
      } catch {}
      ctx.addIssue({ code: 'custom', message: 'must be an absolute http(s) URL' });
    }
    return z.NEVER;
  });

/** Resolves host names the way the HTTP client does (`fetch.resolve` overrides first). */
async function addressesOf(host: string, overrides: Readonly<Record<string, string>>): Promise<string[]> {
  const override = overrides[host.toLowerCase()];
  if (override) return [override];
  try {
    return (await dns.lookup(host, { all: true })).map((a) => a.address);
  } catch {
    // Not resolvable now: deliveries will say so (and retry); the address cannot be judged yet.
    return [];
  }
}

/** Why the SSRF guard refuses this receiver (already parsed by `receiverUrlSchema`), or null. */
export async function receiverRefusal(url: string, fetch: Readonly<TrawlConfig['fetch']>): Promise<string | null> {
  if (fetch.allowPrivateNetwork) return null;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  const byName = forbiddenHostnameReason(host.toLowerCase());
  if (byName) return `host ${host} is not allowed (${byName})`;
  const addresses = isIpLiteral(host) ? [host] : await addressesOf(host, fetch.resolve);
  for (const address of addresses) {
    const reason = forbiddenAddressReason(address);
    if (reason) return `address ${address} is not allowed (${reason})`;
  }
  return null;
}
