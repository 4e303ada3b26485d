/**
 * Connections through an outbound proxy, on well-kept client libraries: the proxy-agent family
 * (`http-proxy-agent` for plain-HTTP targets, `https-proxy-agent` for CONNECT tunnels,
 * `socks-proxy-agent`) for the HTTP client's requests, and `socks`' client plus node:http's own
 * CONNECT support for the raw tunnels the browser's guard proxy hands to Chromium.
 *
 * Where names are resolved decides how the SSRF guard holds: `socks5://` resolves here, through the
 * guard's lookup, so the proxy is sent the very address that was checked; `socks5h://` and HTTP
 * proxies resolve at the proxy, so the name is checked here first (the proxy's own resolver could
 * still differ: say so to operators who need that last step closed, and prefer `socks5://`).
 */
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { SocksProxyAgent } from 'socks-proxy-agent';
import { SocksClient } from 'socks';
import { redactProxy } from './proxies.ts';

/** Proxies are few (the configuration names them), so one agent per proxy and target kind is kept. */
const agents = new Map<string, http.Agent>();

/** Whether target names are resolved on this side (and the proxy is sent an address). */
export function resolvesLocally(proxyUrl: string): boolean {
  return proxyUrl.startsWith('socks5:');
}

/** The agent an http(s) request to a `secure` or plain target uses to go through `proxyUrl`. */
export function proxyAgent(proxyUrl: string, secure: boolean): http.Agent {
  const key = `${secure ? 'tls' : 'plain'} ${proxyUrl}`;
  let agent = agents.get(key);
  if (!agent) {
    if (proxyUrl.startsWith('socks')) agent = new SocksProxyAgent(proxyUrl);
    else agent = secure ? new HttpsProxyAgent(proxyUrl) : new HttpProxyAgent(proxyUrl);
    agents.set(key, agent);
  }
  return agent;
}

/** A proxy's refusal (its own status, or a failed SOCKS handshake), worded without credentials. */
export class ProxyRefusedError extends Error {
  constructor(readonly proxy: string, readonly detail: string, readonly status?: number) {
    super(`the proxy ${proxy} refused the connection: ${detail}`);
    this.name = 'ProxyRefusedError';
  }
}

/** Removes a proxy URL's credentials from a library's message, in case one ever quotes them. */
export function scrubProxy(message: string, proxyUrl: string): string {
  const { username, password } = new URL(proxyUrl);
  let out = message.split(proxyUrl).join(redactProxy(proxyUrl));
  for (const secret of [password, decodeURIComponent(password)]) if (secret) out = out.split(secret).join('***');
  return username ? out.split(`${decodeURIComponent(username)}:`).join('***:') : out;
}

export function statusRefusal(proxyUrl: string, status: number): ProxyRefusedError {
  const detail = status === 407 ? 'it wants credentials, or other ones (HTTP 407 Proxy Authentication Required)' : `HTTP ${status}`;
  return new ProxyRefusedError(redactProxy(proxyUrl), detail, status);
}

/** A raw TCP connection to `host:port` through the proxy (for tunnels); `host` may be a name or an address. */
export async function tunnelThrough(proxyUrl: string, host: string, port: number, timeoutMs: number): Promise<Socket> {
  const proxy = new URL(proxyUrl);
  const user = decodeURIComponent(proxy.username);
  const password = decodeURIComponent(proxy.password);
  if (proxy.protocol.startsWith('socks')) {
    try {
      const { socket } = await SocksClient.createConnection({
        proxy: { host: proxy.hostname.replace(/^\[|\]$/g, ''), port: Number(proxy.port || 1080), type: 5, ...(user ? { userId: user, password } : {}) },
        destination: { host, port },
        command: 'connect',
        timeout: timeoutMs,
      });
      return socket;
    } catch (err) {
      throw new ProxyRefusedError(redactProxy(proxyUrl), scrubProxy(err instanceof Error ? err.message : String(err), proxyUrl));
    }
  }
  const secureProxy = proxy.protocol === 'https:';
  return new Promise<Socket>((resolve, reject) => {
    const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    const request = (secureProxy ? https : http).request({
      host: proxy.hostname.replace(/^\[|\]$/g, ''),
      port: Number(proxy.port || (secureProxy ? 443 : 80)),
      method: 'CONNECT',
      path: target,
      agent: false,
      timeout: timeoutMs,
      headers: { host: target, ...(user ? { 'proxy-authorization': `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` } : {}) },
    });
    request.once('connect', (answer, socket: Socket, head: Buffer) => {
      if (answer.statusCode !== 200) {
        socket.destroy();
        return reject(statusRefusal(proxyUrl, answer.statusCode ?? 0));
      }
      if (head.length) socket.unshift(head);
      resolve(socket);
    });
    request.once('timeout', () => request.destroy(new ProxyRefusedError(redactProxy(proxyUrl), `no answer within ${timeoutMs} ms`)));
    request.once('error', (err) => reject(err instanceof ProxyRefusedError ? err : new ProxyRefusedError(redactProxy(proxyUrl), scrubProxy(err.message, proxyUrl))));
    request.end();
  });
}
