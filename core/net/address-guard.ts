/**
 * The SSRF guard's address rules, in one place for every outbound connection (the HTTP client, the
 * browser's guard proxy, the check of a webhook receiver): host names refused by name (metadata
 * services, localhost), IP literals and resolved addresses checked with the policy, and the
 * `fetch.resolve` overrides. The check runs inside the socket's lookup, so the address checked is
 * the address connected to.
 */
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { TrawlConfig } from '../config-schema.ts';
import { ForbiddenAddressError } from './http-support.ts';
import { forbiddenHostnameReason, isIpLiteral } from './ssrf.ts';

/** Why an address must not be contacted, or null; see `forbiddenAddressReason`. */
export type AddressPolicy = (ip: string) => string | null;

export interface AddressGuard {
  /** Why a host must not be contacted before any lookup (by name, or as a literal), or null. */
  hostRefusal(host: string): ForbiddenAddressError | null;
  /** A socket lookup that applies the overrides and refuses forbidden answers. */
  lookupFor(port: number): LookupFunction;
  /** Resolves `host` as `lookupFor` would, to its first address; rejects when it is refused. */
  check(host: string, port: number): Promise<string>;
}

/**
 * What a refusal adds for the operator. Self-hosted, the one trying a page on this machine is the
 * one who can allow it, so it names the setting; a cloud instance's users cannot change it.
 */
export function privateNetworkHint(mode: TrawlConfig['mode']): string {
  return mode === 'cloud'
    ? ''
    : 'set fetch.allowPrivateNetwork = true (or TRAWL_FETCH_ALLOW_PRIVATE_NETWORK=true) to allow private addresses';
}

/** `policy` null (private networks allowed): only the `fetch.resolve` overrides apply. `hint` ends every refusal's message. */
export function createAddressGuard(fetch: Readonly<TrawlConfig['fetch']>, policy: AddressPolicy | null, hint = ''): AddressGuard {
  const overrides = new Map(Object.entries(fetch.resolve).map(([k, v]) => [k.toLowerCase(), v]));
  const refuse = (address: string, reason: string) => new ForbiddenAddressError(address, reason, hint);

  const guard: AddressGuard = {
    check: (host, port) =>
      new Promise((resolve, reject) => {
        guard.lookupFor(port)(host, { all: true }, (err, addresses) => {
          if (err) return reject(err);
          resolve(Array.isArray(addresses) ? addresses[0]!.address : addresses);
        });
      }),
    hostRefusal(raw) {
      const host = raw.replace(/^\[|\]$/g, '').toLowerCase();
      if (!policy) return null;
      const byName = forbiddenHostnameReason(host);
      if (byName) return refuse(host, byName);
      if (!isIpLiteral(host)) return null;
      const reason = policy(host);
      return reason ? refuse(host, reason) : null;
    },
    lookupFor: (port) => (hostname, options, callback) => {
      const host = hostname.toLowerCase();
      const target = overrides.get(`${host}:${port}`) ?? overrides.get(host) ?? hostname;
      dns.lookup(target, { family: options.family ?? 0, hints: options.hints, all: true }, (err, addresses) => {
        if (err) return callback(err, '', 0);
        // Any forbidden answer taints the name: mixing public and internal answers is what a
        // rebinding attacker serves.
        for (const { address } of addresses) {
          const reason = policy?.(address);
          if (reason) return callback(refuse(address, reason) as unknown as NodeJS.ErrnoException, '', 0);
        }
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
        if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
        callback(null, first.address, first.family);
      });
    },
  };
  return guard;
}
