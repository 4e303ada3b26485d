/**
 * Addresses Trawl will send notifications to (a registered webhook's `url`, a crawl's or batch's
 * `webhook_url`): one schema and one check for all of them. A receiver must be written out in full
 * (no `https://` guessed for a bare word, unlike a page to scrape), may not hold control characters
 * (WHATWG parsing would silently drop a tab or newline and store another address than the one
 * shown), and must pass the SSRF guard when it is registered, unless private networks are allowed:
 * a refusal then is a 400 now rather than failed deliveries later. Deliveries are checked again.
 */
import { z } from 'zod';
import type { TrawlConfig } from '../config-schema.ts';
import { createAddressGuard } from './address-guard.ts';
import { ForbiddenAddressError } from './http-support.ts';
import { forbiddenAddressReason, forbiddenHostnameReason } from './ssrf.ts';

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

export const receiverUrlSchema = z
  .string()
  .max(2048)
  .transform((value, ctx) => {
    const trimmed = value.replace(/^ +| +$/g, '');
    if (!trimmed) ctx.addIssue({ code: 'custom', message: 'must not be empty' });
    else if (CONTROL_CHARACTER.test(trimmed))
      ctx.addIssue({ code: 'custom', message: 'must not contain control characters (tab, newline, …)' });
    else {
      try {
        const url = new URL(trimmed);
        if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && /^https?:\/\//i.test(trimmed))
          return url.href;
      } catch {}
      ctx.addIssue({ code: 'custom', message: 'must be an absolute http(s) URL' });
    }
    return z.NEVER;
  });

/** Why the SSRF guard refuses this receiver (already parsed by `receiverUrlSchema`), or null. */
export async function receiverRefusal(url: string, fetch: Readonly<TrawlConfig['fetch']>): Promise<string | null> {
  if (fetch.allowPrivateNetwork) return null;
  const { hostname, port, protocol } = new URL(url);
  const host = hostname.replace(/^\[|\]$/g, '');
  const byName = forbiddenHostnameReason(host);
  if (byName) return `host ${host} is not allowed (${byName})`;
  // The HTTP client's own rules: literals by the policy, names resolved with the `fetch.resolve` overrides.
  const guard = createAddressGuard(fetch, forbiddenAddressReason);
  const literal = guard.hostRefusal(host);
  if (literal) return literal.message;
  const lookup = guard.lookupFor(Number(port || (protocol === 'https:' ? 443 : 80)));
  return new Promise((resolve) => {
    lookup(host, { all: true }, (err) => {
      // Not resolvable now: deliveries will say so (and retry); the address cannot be judged yet.
      resolve(err instanceof ForbiddenAddressError ? err.message : null);
    });
  });
}
