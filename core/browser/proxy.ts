/**
 * The SSRF guard of the browser: a forward proxy on 127.0.0.1, one per browser context, through
 * which Chromium sends every connection of the page — documents, frames, subresources, XHR/fetch,
 * each redirect hop, WebSockets and TLS tunnels. When the job goes through an outbound proxy, this
 * one chains to it (core/net/proxy-dial.ts), so the guard still sees every request and Chromium
 * never needs the upstream's credentials (it cannot send SOCKS5 credentials at all). Playwright's request interception alone is not
 * enough: it never sees redirect hops, so an allowed URL answering "302 → http://10.0.0.1/" would
 * reach the internal address. Here the check runs in the socket's own lookup (the address checked
 * is the address connected to, so DNS rebinding gains nothing) with the HTTP client's rules.
 *
 * It is also where a page's size is bounded before Chromium spends memory on it: a response body
 * past `browser.maxResponseBytes` is cut (one whose length is declared is not started), and once
 * the page's bodies together — TLS tunnels counted by the bytes they carry — pass
 * `browser.maxPageBytes`, every connection of the context is closed and the pool is told.
 *
 * Refused plain-HTTP requests get a 403 from the proxy; refused tunnels a failed CONNECT, which
 * Chromium reports as a network error. Every refusal and upstream failure is recorded with its URL,
 * so the fetcher can say why the page itself failed and which sub-requests were blocked.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { pipeline, Transform, type Duplex } from 'node:stream';
import type { TrawlConfig } from '../config-schema.ts';
import { createAddressGuard, type AddressPolicy } from '../net/address-guard.ts';
import { describeNetworkError, ForbiddenAddressError } from '../net/http-support.ts';
import type { BrowserRequestFailure } from '../services.ts';
import { isIpLiteral } from '../net/ssrf.ts';
import { forwardingAgent, resolvesHere, statusRefusal, TunnelAgent, tunnelThrough } from '../net/proxy-dial.ts';

export interface GuardProxy {
  /** `http://127.0.0.1:<port>`, for the context's proxy setting. */
  url: string;
  readonly failures: readonly BrowserRequestFailure[];
  /** Told once when the page passes `maxPageBytes` (the pool fails the job with it); set by whoever uses the context. */
  onLimit?: (message: string) => void;
  close(): Promise<void>;
}

/** The render limits (`browser.maxResponseBytes`, `browser.maxPageBytes`); null: unbounded. */
export interface ProxyLimits {
  maxResponseBytes: number;
  maxPageBytes: number;
}

const responseTooLarge = (limits: ProxyLimits) => `a response passed browser.maxResponseBytes (${limits.maxResponseBytes} bytes)`;

/** Headers that describe one hop, never forwarded (RFC 9110 §7.6.1, plus the proxy's own). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
/** Failures listed per context at most: a page firing thousands of blocked requests stays bounded. */
const MAX_RECORDED = 200;

function forwardable(headers: IncomingMessage['headers']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
  return out;
}

/** `host:port` of a CONNECT target, IPv6 in brackets. */
function splitTarget(target: string): { host: string; port: number } | null {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(target);
  const port = Number(match?.[2]);
  return match && port > 0 && port < 65536 ? { host: match[1]!.replace(/^\[|\]$/g, ''), port } : null;
}

/** `policy` null: private networks allowed (started only to chain to `upstream`). `refusalHint` goes with each refusal recorded. */
export async function startGuardProxy(
  fetch: Readonly<TrawlConfig['fetch']>,
  policy: AddressPolicy | null,
  upstream: string | null = null,
  refusalHint = '',
  limits: ProxyLimits | null = null,
): Promise<GuardProxy> {
  const guard = createAddressGuard(fetch, policy);
  const failures: BrowserRequestFailure[] = [];
  let pageBytes = 0;
  let pageOver = false;
  const sockets = new Set<Duplex>();
  const agent = new http.Agent({ keepAlive: true });
  const record = (url: string, err: unknown, host: string): void => {
    if (failures.length >= MAX_RECORDED) return;
    const refused = err instanceof ForbiddenAddressError;
    failures.push({ url, reason: describeNetworkError(err, host), refused, ...(refused && refusalHint ? { hint: refusalHint } : {}) });
  };
  const recordLimit = (url: string, reason: string): void => {
    if (failures.length < MAX_RECORDED) failures.push({ url, reason, refused: false, limit: true });
  };
  /** Counts body bytes against the page's budget; false once it is spent (then every connection is closed). */
  const spend = (bytes: number): boolean => {
    pageBytes += bytes;
    if (!limits || pageBytes <= limits.maxPageBytes) return true;
    if (!pageOver) {
      pageOver = true;
      for (const socket of sockets) socket.destroy();
      proxy.onLimit?.(`The rendered page is too large: it loaded more than browser.maxPageBytes (${limits.maxPageBytes} bytes)`);
    }
    return false;
  };
  /** A response's body on its way to Chromium, cut at `maxResponseBytes` or when the page's budget is spent. */
  const meter = (url: string) => {
    let seen = 0;
    return new Transform({
      transform(chunk: Buffer, _encoding, done) {
        seen += chunk.length;
        if (limits && seen > limits.maxResponseBytes) {
          recordLimit(url, responseTooLarge(limits));
          return done(new Error('response cut'));
        }
        if (!spend(chunk.length)) return done(new Error('page budget spent'));
        done(null, chunk);
      },
    });
  };
  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return res.writeHead(400).end();
    }
    if (url.protocol !== 'http:') return res.writeHead(400).end();
    if (pageOver) return res.writeHead(502).end();
    const refusal = guard.hostRefusal(url.hostname);
    if (refusal) {
      record(url.href, refusal, url.hostname);
      return res.writeHead(403, { 'content-type': 'text/plain' }).end(`Blocked by Trawl: ${refusal.message}`);
    }
    const port = Number(url.port || 80);
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    // A proxy that resolves names itself is sent nothing before the name is checked here.
    if (!upstream || !policy || isIpLiteral(hostname)) return send(req, res, url, port);
    guard.check(hostname, port).then(
      () => send(req, res, url, port),
      (err: unknown) => {
        record(url.href, err, url.hostname);
        res.writeHead(err instanceof ForbiddenAddressError ? 403 : 502).end();
      },
    );
  };

  /** Plain HTTP through the upstream: forwarded to an HTTP proxy, tunnelled through SOCKS (to the checked address). */
  const upstreamAgent = (proxyUrl: string): http.Agent =>
    forwardingAgent(proxyUrl) ??
    new TunnelAgent(proxyUrl, {
      timeoutMs: fetch.timeoutMs,
      ...(resolvesHere(proxyUrl, policy !== null) ? { resolve: guard.check } : {}),
    });

  const send = (req: IncomingMessage, res: ServerResponse, url: URL, port: number) => {
    const outbound = http.request(
      {
        hostname: url.hostname.replace(/^\[|\]$/g, ''),
        port,
        path: `${url.pathname}${url.search}`,
        method: req.method,
        headers: forwardable(req.headers),
        agent: upstream ? upstreamAgent(upstream) : agent,
        lookup: guard.lookupFor(port),
      },
      (answer) => {
        if (upstream && answer.statusCode === 407) {
          // The outbound proxy's own refusal: Chromium must not take it for a challenge of this proxy.
          answer.resume();
          record(url.href, statusRefusal(upstream, 407), url.hostname);
          return res.writeHead(502).end();
        }
        if (limits && Number(answer.headers['content-length']) > limits.maxResponseBytes) {
          // Declared too long: Chromium gets none of it.
          answer.destroy();
          recordLimit(url.href, responseTooLarge(limits));
          return res.writeHead(502).end();
        }
        res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
        pipeline(answer, meter(url.href), res, () => {}); // a cut ends the response early; Chromium sees it incomplete
      },
    );
    outbound.on('error', (err) => {
      record(url.href, err, url.hostname);
      if (res.headersSent) res.destroy();
      else res.writeHead(err instanceof ForbiddenAddressError ? 403 : 502).end();
    });
    // The browser gave up on the request (navigated away, context closed): so does the proxy.
    res.on('close', () => {
      if (!res.writableFinished) outbound.destroy();
    });
    req.pipe(outbound);
  };

  const tunnel = (req: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    const target = splitTarget(req.url ?? '');
    if (pageOver) return client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    if (!target) return client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    const label = `https://${req.url}`;
    const refusal = guard.hostRefusal(target.host);
    if (refusal) {
      record(label, refusal, target.host);
      return client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    }
    let connected = false;
    const fail = (err: unknown) => {
      record(label, err, target.host);
      if (connected) client.destroy();
      else client.end(`HTTP/1.1 ${err instanceof ForbiddenAddressError ? '403 Forbidden' : '502 Bad Gateway'}\r\n\r\n`);
    };
    const splice = (outbound: Duplex) => {
      track(outbound);
      connected = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) outbound.write(head);
      // Counted before the pipe writes: the chunk that spends the budget is not passed on.
      outbound.on('data', (chunk: Buffer) => {
        if (!spend(chunk.length)) outbound.destroy();
      });
      outbound.pipe(client);
      client.pipe(outbound);
      outbound.on('error', fail);
      client.on('error', () => outbound.destroy());
      client.on('close', () => outbound.destroy());
    };
    if (upstream) {
      chainedTunnel(upstream, target).then((socket) => (client.destroyed ? socket.destroy() : splice(socket)), fail);
      return;
    }
    const outbound = net.connect({ host: target.host, port: target.port, lookup: guard.lookupFor(target.port) });
    track(outbound);
    outbound.once('connect', () => splice(outbound));
    outbound.once('error', fail);
    client.on('close', () => {
      if (!connected) outbound.destroy();
    });
  };

  /** A tunnel through the outbound proxy, after the guard has passed the target (socks5: the very address). */
  const chainedTunnel = async (proxyUrl: string, target: { host: string; port: number }) => {
    let host = target.host;
    if (resolvesHere(proxyUrl, policy !== null) && !isIpLiteral(host)) host = await guard.check(host, target.port);
    else if (policy && !isIpLiteral(host)) await guard.check(host, target.port);
    return tunnelThrough(proxyUrl, host, target.port, { timeoutMs: fetch.timeoutMs });
  };

  const server = http.createServer(forward);
  server.on('connect', tunnel);
  server.on('connection', track);
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  const proxy: GuardProxy = {
    url: `http://127.0.0.1:${port}`,
    failures,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      agent.destroy();
      await closed;
    },
  };
  return proxy;
}
