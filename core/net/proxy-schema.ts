/**
 * The configuration shapes of outbound proxies (`fetch.proxy`, `[fetch.proxies.<name>]`) and the
 * names a request may use, kept apart from the router so the config schema can use them without
 * pulling in the proxy client libraries.
 */
import { z } from 'zod';

export const PROXY_SCHEMES = ['http:', 'https:', 'socks5:', 'socks5h:'] as const;

/** Choices with a meaning of their own, so no pool may take their names. */
export const RESERVED_PROXY_CHOICES = ['none', 'auto'] as const;

/** Why a proxy URL is unusable, or null. */
export function proxyUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  if (!(PROXY_SCHEMES as readonly string[]).includes(url.protocol))
    return `has scheme ${url.protocol} (use ${PROXY_SCHEMES.map((s) => `${s}//`).join(', ')})`;
  if (!url.hostname) return 'has no host';
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
    return 'must be scheme://[user:password@]host:port and nothing more';
  return null;
}

// The message names no part of the value: a proxy URL may carry a password. Kept as the URL
// parser writes it (scheme and host in lower case), so `SOCKS5://…` is `socks5://…` everywhere after.
export const proxyUrl = z
  .string()
  .superRefine((value, ctx) => {
    const problem = proxyUrlProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `proxy URL ${problem}` });
  })
  .transform((value) => new URL(value).href.replace(/\/$/, ''));

export const proxyPool = z.strictObject({
  /** The pool's proxies, each `scheme://[user:password@]host:port`. */
  urls: z.array(proxyUrl).min(1),
  /** Which proxy a request takes: in turn, at random, or one per target host for `stickySeconds`. */
  rotation: z.enum(['round-robin', 'random', 'sticky']).default('round-robin'),
  stickySeconds: z.number().int().min(1).max(86_400).default(600),
});

/** Pools by name (`[fetch.proxies.<name>]`); names are checked here so the message can say what is wrong with one. */
export const proxyPools = z.record(z.string(), proxyPool).superRefine((pools, ctx) => {
  for (const name of Object.keys(pools)) {
    if ((RESERVED_PROXY_CHOICES as readonly string[]).includes(name.toLowerCase()))
      ctx.addIssue({ code: 'custom', path: [name], message: 'is reserved ("none" and "auto" are choices of their own)' });
    else if (!/^[A-Za-z0-9][\w-]{0,63}$/.test(name))
      ctx.addIssue({ code: 'custom', path: [name], message: 'pool names are letters, digits, "-" and "_"' });
  }
});

export type ProxyPoolConfig = z.output<typeof proxyPool>;
