/**
 * The outbound HTTP client every fetch goes through (core/services.ts `HttpClient`). It owns the
 * security defaults: the SSRF guard runs inside the socket's DNS lookup (so the address checked is
 * the address connected to) and before connecting to IP literals, on every redirect hop, which are
 * followed here rather than by the platform; one deadline covers connect, headers and body; the
 * body is capped after decompression. Text bodies are decoded with the detected charset.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Logger } from 'pino';
import type { TrawlConfig } from '../config-schema.ts';
import type { FetchedResponse } from './response.ts';
import { TrawlError, fetchFailed } from '../errors.ts';
import type { HttpClient, HttpRequestOptions } from '../services.ts';
import { readBody } from './body.ts';
import { decodeUtf8, settleCharset } from './charset.ts';
import { textOnFirstRead } from '../response-text.ts';
import { forbiddenAddressReason, isIpLiteral } from './ssrf.ts';
import { DIRECT, ProxyRouter } from './proxies.ts';
import { forwardingAgent, resolvesHere, statusRefusal, TunnelAgent } from './proxy-dial.ts';
import { createAddressGuard, type AddressGuard, type AddressPolicy } from './address-guard.ts';
import { guardRefusal, isTextual, mediaTypeOf, RequestTimeout } from './http-support.ts';
import {
  flattenHeaders,
  isLocalService,
  mergeHeaders,
  nextHop,
  REDIRECTS,
  redirectRefused,
  requestFailure,
  type Attempt,
  type HopRequest,
} from './hops.ts';
import { fetchFailureReason, statusClass } from './fetch-reasons.ts';
import type { Metrics } from '../metrics.ts';
import { loggableUrl } from './url.ts';

export type FetchConfig = TrawlConfig['fetch'];

export interface HttpClientHooks {
  /**
   * Replaces the address check used when `allowPrivateNetwork` is false. Production code never
   * sets it; tests use it to treat one loopback address as "public" so a redirect from an allowed
   * first hop into a forbidden address can be exercised without touching a real network.
   */
  addressPolicy?: AddressPolicy;
  /** Extra trusted certificate (PEM) for TLS targets; tests use it for a self-signed fixture behind a proxy. */
  ca?: string;
  /**
   * The port to connect to instead of the URL's, by host name: with a `fetch.resolve` entry, tests
   * reach a receiver on 127.0.0.1 under a real service's name and https URL (a chat platform's
   * webhook), whose default port 443 a test cannot bind.
   */
  connectPorts?: Readonly<Record<string, number>>;
  /** Ends every address refusal's message (`privateNetworkHint`: the setting, in self-hosted mode). */
  refusalHint?: string;
}

const DEFAULT_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

export function createHttpClient(
  config: FetchConfig,
  logger: Logger,
  hooks: HttpClientHooks = {},
  metrics?: Metrics,
  proxies = new ProxyRouter(config),
): HttpClient {
  const policy: AddressPolicy | null = config.allowPrivateNetwork ? null : (hooks.addressPolicy ?? forbiddenAddressReason);
  // The same address rules as every other outbound connection (the browser's proxy, receivers).
  const guard = createAddressGuard(config, policy, hooks.refusalHint);
  // For the origin of a configured service (`configuredService`): the operator chose it.
  const openGuard = policy ? createAddressGuard(config, null) : guard;

  const openHop = async (hop: HopRequest, attempt: Attempt, guard: AddressGuard): Promise<IncomingMessage> => {
    const { url, proxy } = hop;
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    const isHttps = url.protocol === 'https:';
    const port = String(hooks.connectPorts?.[hostname.toLowerCase()] ?? (url.port || (isHttps ? '443' : '80')));
    // By name, and literals (sockets skip the lookup hook for them); resolved names in the lookup.
    const refusal = guard.hostRefusal(hostname);
    if (refusal) throw refusal;
    const agent = proxy ? await proxyAgentFor(proxy, isHttps, hostname, Number(port), attempt, guard) : false;
    return new Promise((resolve, reject) => {
      if (attempt.signal.aborted) return reject(attempt.signal.reason);
      attempt.gotHeaders = false;
      const req = (isHttps ? https : http).request({
        protocol: url.protocol,
        hostname,
        port,
        path: `${url.pathname}${url.search}`,
        method: hop.method,
        headers: hop.headers,
        agent,
        lookup: guard.lookupFor(Number(port)),
        auth: url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
        ...(hooks.ca ? { ca: hooks.ca } : {}),
      });
      // Settled here, not only through the request: a request still waiting for its agent's socket
      // may never report its own destruction.
      const onAbort = () => {
        req.destroy(attempt.signal.reason as Error);
        reject(attempt.signal.reason);
      };
      attempt.signal.addEventListener('abort', onAbort, { once: true });
      req.once('response', (res) => {
        attempt.signal.removeEventListener('abort', onAbort);
        attempt.gotHeaders = true;
        // The proxy's own answer (missing credentials) is not the page's.
        if (proxy && res.statusCode === 407) {
          res.destroy();
          return reject(statusRefusal(proxy, 407));
        }
        resolve(res);
      });
      req.once('error', (err) => {
        attempt.signal.removeEventListener('abort', onAbort);
        reject(err);
      });
      req.end(hop.body);
    });
  };

  /**
   * The agent of one hop through a proxy. Tunnels go to the address the guard checked (through
   * socks5h:// to the name, checked first); plain HTTP to an HTTP proxy is forwarded by name, after
   * the check. Both are bounded by the request's deadline and signal.
   */
  const proxyAgentFor = async (proxy: string, isHttps: boolean, hostname: string, port: number, attempt: Attempt, guard: AddressGuard) => {
    const guarded = policy !== null;
    const forwarder = isHttps ? null : forwardingAgent(proxy);
    const here = !forwarder && resolvesHere(proxy, guarded);
    if (guarded && !here && !isIpLiteral(hostname)) await guard.check(hostname, port);
    return (
      forwarder ??
      new TunnelAgent(proxy, {
        timeoutMs: attempt.timeoutMs,
        signal: attempt.signal,
        ...(hooks.ca ? { ca: hooks.ca } : {}),
        ...(here ? { resolve: guard.check } : {}),
      })
    );
  };

  async function run(start: URL, options: HttpRequestOptions, attempt: Attempt): Promise<FetchedResponse> {
    const maxRedirects = options.maxRedirects ?? config.maxRedirects;
    const maxBytes = options.maxBodyBytes ?? config.maxBodyBytes;
    const headers = mergeHeaders(
      { 'user-agent': config.userAgent, accept: DEFAULT_ACCEPT, 'accept-encoding': 'gzip, deflate, br' },
      config.headers,
      options.headers ?? {},
    );
    const { url: proxy } =
      options.configuredService && isLocalService(start.hostname) ? DIRECT : proxies.route(options.proxy, start.hostname);
    let hop: HopRequest = { url: start, method: options.method ?? 'GET', headers, body: options.body, proxy };
    for (let redirects = 0; ; redirects++) {
      let res: IncomingMessage;
      try {
        res = await openHop(hop, attempt, options.configuredService && hop.url.origin === start.origin ? openGuard : guard);
      } catch (err) {
        const refused = options.configuredService && hop.url.origin !== start.origin ? guardRefusal(err) : null;
        if (refused) throw redirectRefused(refused, hop.url);
        throw requestFailure(err, hop.url, attempt, hop.proxy);
      }
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (REDIRECTS.has(status) && location) {
        res.destroy();
        if (redirects >= maxRedirects) throw fetchFailed('too many redirects');
        const from = loggableUrl(hop.url);
        hop = nextHop(hop, status, location);
        logger.debug({ from, status, to: loggableUrl(hop.url) }, 'following redirect');
        continue;
      }
      const responseHeaders = flattenHeaders(res.headers);
      let body: Uint8Array = new Uint8Array(0);
      let truncated = false;
      const noBody = hop.method === 'HEAD' || status === 204 || status === 304;
      if (!noBody && !options.truncateBody && Number(responseHeaders['content-length']) > maxBytes) {
        // Announced as too big: refuse without reading a byte of it.
        res.destroy();
        throw fetchFailed(`response body exceeds ${maxBytes} bytes`);
      }
      try {
        if (noBody) res.destroy();
        else
          ({ body, truncated } = await readBody(res, {
            maxBytes,
            contentEncoding: responseHeaders['content-encoding'],
            signal: attempt.signal,
            truncate: options.truncateBody,
          }));
      } catch (err) {
        throw requestFailure(err, hop.url, attempt, hop.proxy);
      }
      const mediaType = mediaTypeOf(responseHeaders['content-type'], body);
      const response: FetchedResponse = {
        status,
        headers: responseHeaders,
        body,
        finalUrl: hop.url.href,
        mediaType,
        ...(truncated ? { truncated } : {}),
      };
      if (isTextual(mediaType)) {
        const markup = /html|xml/.test(mediaType);
        const settled = settleCharset(body, { contentType: responseHeaders['content-type'], sniffMarkup: markup });
        response.charset = settled.charset;
        if ('text' in settled) response.text = settled.text;
        else textOnFirstRead(response, () => decodeUtf8(body));
      }
      logger.debug({ url: loggableUrl(response.finalUrl), status, bytes: body.byteLength }, 'fetched');
      return response;
    }
  }

  return {
    async request(url, options = {}) {
      let start: URL;
      try {
        start = new URL(url);
      } catch {
        throw fetchFailed(`invalid URL ${JSON.stringify(url)}`);
      }
      if (start.protocol !== 'http:' && start.protocol !== 'https:') throw fetchFailed(`unsupported URL scheme ${start.protocol}`);
      const timeoutMs = options.timeoutMs ?? config.timeoutMs;
      const controller = new AbortController();
      const attempt: Attempt = { gotHeaders: false, signal: controller.signal, timeoutMs };
      const timer = setTimeout(() => controller.abort(new RequestTimeout()), timeoutMs);
      const onCallerAbort = () => controller.abort(options.signal?.reason);
      if (options.signal?.aborted) onCallerAbort();
      options.signal?.addEventListener('abort', onCallerAbort, { once: true });
      try {
        const response = await run(start, options, attempt);
        metrics?.fetches.inc({ client: 'http', outcome: 'ok', reason: statusClass(response.status) });
        return response;
      } catch (err) {
        metrics?.fetches.inc({ client: 'http', outcome: 'failed', reason: fetchFailureReason(err) });
        // A caller that aborts with its own TrawlError (a job deadline, say) gets it back unchanged.
        const reason: unknown = options.signal?.aborted ? options.signal.reason : undefined;
        throw reason instanceof TrawlError ? reason : err;
      } finally {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onCallerAbort);
      }
    },
  };
}
