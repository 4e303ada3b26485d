/**
 * Which outbound proxy a fetch goes through. A request's `proxy` choice is `"none"` (direct), a
 * pool's name, `"auto"` (the pipeline's escalation, core/fetch-attempts.ts) or unset (the default
 * proxy `fetch.proxy`, else direct); the router turns a choice and a target host into one proxy URL,
 * rotating within a pool. One router per process, shared by the HTTP client and the browser, so
 * rotation and stickiness hold across both. Proxy URLs carry credentials: only `redactProxy` output
 * may reach logs, errors and answers.
 */
import { badRequest, configInvalid } from '../errors.ts';
import type { TrawlConfig } from '../config-schema.ts';
import type { ProxyPoolConfig } from './proxy-schema.ts';

export interface ProxyRoute {
  /** `direct`, `default` or the pool's name: what warnings and metrics say. */
  label: string;
  /** The proxy to use, with credentials; null for a direct connection. */
  url: string | null;
}

export const DIRECT: ProxyRoute = Object.freeze({ label: 'direct', url: null });

/** A proxy URL fit to show: scheme, host and port, never the credentials. */
export function redactProxy(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'an invalid proxy URL';
  }
}

/** Why a request's `proxy` value cannot be used with these pools, or null. */
export function proxyChoiceProblem(pools: readonly string[], choice: string): string | null {
  if (choice === 'none' || choice === 'auto' || pools.includes(choice)) return null;
  const known = pools.length ? ` or one of: ${pools.map((n) => `"${n}"`).join(', ')}` : '; no pools are configured in [fetch.proxies]';
  return `unknown proxy pool "${choice}" (use "none", "auto"${known})`;
}

/** Sticky assignments remembered at most; past it the oldest go first (a crawl of many hosts stays bounded). */
const MAX_STICKY = 10_000;

export class ProxyRouter {
  private readonly pools: ReadonlyMap<string, ProxyPoolConfig>;
  private readonly defaultRoute: ProxyRoute;
  private readonly turns = new Map<string, number>();
  private readonly sticky = new Map<string, { url: string; until: number }>();

  constructor(
    fetch: Readonly<Pick<TrawlConfig['fetch'], 'proxy' | 'proxies'>>,
    private readonly now: () => number = Date.now,
  ) {
    this.pools = new Map(Object.entries(fetch.proxies));
    this.defaultRoute = fetch.proxy ? { label: 'default', url: fetch.proxy } : DIRECT;
  }

  /** Pool names in configuration order: the order `"auto"` tries them in. */
  poolNames(): string[] {
    return [...this.pools.keys()];
  }

  problem(choice: string): string | null {
    return proxyChoiceProblem(this.poolNames(), choice);
  }

  /** The route of one fetch: `choice` unset or `"auto"` take the default route (auto escalates elsewhere). */
  route(choice: string | undefined, host: string): ProxyRoute {
    if (choice === undefined || choice === 'auto') return this.defaultRoute;
    if (choice === 'none') return DIRECT;
    const pool = this.pools.get(choice);
    if (!pool) throw badRequest(`Invalid field proxy: ${this.problem(choice)!}`);
    return { label: choice, url: this.pick(choice, pool, host.toLowerCase()) };
  }

  private pick(name: string, pool: ProxyPoolConfig, host: string): string {
    const { urls } = pool;
    if (urls.length === 1) return urls[0]!;
    if (pool.rotation === 'random') return urls[Math.floor(Math.random() * urls.length)]!;
    if (pool.rotation === 'round-robin') return this.next(name, urls);
    const key = `${name}\n${host}`;
    const now = this.now();
    const held = this.sticky.get(key);
    if (held && held.until > now) return held.url;
    this.sticky.delete(key);
    const url = this.next(name, urls);
    this.sticky.set(key, { url, until: now + pool.stickySeconds * 1000 });
    if (this.sticky.size > MAX_STICKY) this.sticky.delete(this.sticky.keys().next().value!);
    return url;
  }

  private next(name: string, urls: readonly string[]): string {
    const turn = this.turns.get(name) ?? 0;
    this.turns.set(name, (turn + 1) % urls.length);
    return urls[turn]!;
  }
}

/** Checks names a configuration refers to (the /v2 mapping) against the pools it defines; throws at boot. */
export function checkProxyReferences(config: Readonly<TrawlConfig>, router: ProxyRouter): void {
  for (const [value, choice] of Object.entries(config.v2.proxies)) {
    if (choice === undefined) continue;
    const problem = router.problem(choice);
    if (problem) throw configInvalid(`Invalid configuration at v2.proxies.${value}: ${problem}`);
  }
}
