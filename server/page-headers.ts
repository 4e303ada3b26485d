/**
 * The headers of Trawl's own pages whose script runs under a per-response nonce (the account page;
 * the watch dashboard has the same policy): no outside resources, the nonce the only script source,
 * calls to this server only, never framed, never cached.
 */
export function noncePageHeaders(nonce: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    'cache-control': 'no-store',
  };
}
