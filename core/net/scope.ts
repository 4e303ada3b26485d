/**
 * Site scope: which hosts belong to "the site" of a crawl or a map. One rule for both, in three
 * explicit modes:
 *
 * - `host`: the site's own hosts, any port, `www.` ignored (`www.example.com` and `example.com`
 *   are one site to every reader, and sites link both spellings);
 * - `domain`: any host under the same registrable domain (subdomains included), by the public
 *   suffix list with private suffixes counted (github.io, blogspot.com …), so two people's sites
 *   there are not one site; IP addresses and bare names only match themselves;
 * - `any`: every host (external links followed).
 */
import { getDomain } from 'tldts';

export type ScopeMode = 'host' | 'domain' | 'any';

/** The mode for the request flags both APIs use (`allow_subdomains`/`include_subdomains`, `allow_external_links`). */
export function scopeMode(flags: { subdomains?: boolean; external?: boolean }): ScopeMode {
  return flags.external ? 'any' : flags.subdomains ? 'domain' : 'host';
}

/**
 * The registrable domain (`a.site.test` → `site.test`), or the host itself for IPs and bare names.
 * Private suffixes count (github.io, blogspot.com …): two people's sites there are not one site.
 */
export function siteOf(host: string): string {
  return getDomain(host, { allowPrivateDomains: true }) ?? host.toLowerCase();
}

const bareHost = (host: string) => host.toLowerCase().replace(/^www\./, '');

/** A test of host names against the site made of `hosts` (the start host and where it redirected). */
export function siteScope(hosts: readonly string[], mode: ScopeMode): (host: string) => boolean {
  if (mode === 'any') return () => true;
  const exact = new Set(hosts.map(bareHost));
  const sites = new Set(hosts.map(siteOf));
  return (host) => exact.has(bareHost(host)) || (mode === 'domain' && sites.has(siteOf(host)));
}
