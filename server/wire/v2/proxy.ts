/**
 * Firecrawl's `proxy` (`basic | stealth | enhanced | auto`) onto this server's proxy choices, as the
 * operator maps them in `[v2.proxies]`: `basic` unset is the default route, `auto` is Trawl's own
 * auto unless remapped, and a value nothing is configured for is a 400 that says what to set,
 * rather than a scrape that quietly goes out without the proxy the caller asked for.
 */
import { badRequest } from '../../../core/errors.ts';
import type { TrawlConfig } from '../../../core/config-schema.ts';
import type { V2Proxy } from './scrape-options.ts';

/** Sets `options.proxy` for a /v2 request's `proxy` value. */
export function applyV2Proxy(config: Readonly<TrawlConfig>, value: V2Proxy, options: { proxy?: string }, field = 'proxy'): void {
  const choice = config.v2.proxies[value];
  if (choice !== undefined) {
    options.proxy = choice;
    return;
  }
  if (value === 'basic') return;
  throw badRequest(
    `Invalid field ${field}: proxy "${value}" is not configured on this server (the operator maps it to a proxy pool in [v2.proxies], e.g. ${value} = "residential")`,
  );
}
