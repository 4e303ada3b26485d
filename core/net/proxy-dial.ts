/**
 * Connections through an outbound proxy. Tunnels (CONNECT through an HTTP(S) proxy, on node:http's
 * own CONNECT support; SOCKS5, on the `socks` client) serve HTTPS targets, every target of a SOCKS
 * proxy, and the raw tunnels the browser's guard proxy hands to Chromium; `TunnelAgent` (an
 * `agent-base` agent) puts them under the HTTP client's requests. Plain-HTTP targets of an HTTP proxy
 * go as absolute-URI requests (`http-proxy-agent`), since proxies commonly refuse CONNECT to port 80.
 *
 * Every tunnel has a deadline and is torn down when it passes or the caller gives up: a proxy that
 * accepts and then says nothing must not hold a fetch. Where names are resolved decides how the
 * SSRF guard holds: with the guard on, a tunnel is opened to the address the guard checked (never to
 * a name the proxy would resolve again), except through `socks5h://`, whose whole point is that the
 * proxy resolves; there, and for plain-HTTP requests, the name is checked here first.
 */
import http from 'node:http';
import https from 'node:https';
import net, { type Socket } from 'node:net';
import tls from 'node:tls';
import { Agent, type AgentConnectOpts } from 'agent-base';
import { HttpProxyAgent } from 'http-proxy-agent';
import { SocksClient } from 'socks';
import { redactProxy } from './proxies.ts';

/** A proxy's refusal (its own status, a failed SOCKS handshake, no answer), worded without credentials. */
export class ProxyRefusedError extends Error {
  constructor(
    readonly proxy: string,
    readonly detail: string,
    readonly status?: number,
  ) {
    super(`the proxy ${proxy} refused the connection: ${detail}`);
    this.name = 'ProxyRefusedError';
  }
}

export function statusRefusal(proxyUrl: string, status: number): ProxyRefusedError {
  const detail = status === 407 ? 'it wants credentials, or other ones (HTTP 407 Proxy Authentication Required)' : `HTTP ${status}`;
  return new ProxyRefusedError(redactProxy(proxyUrl), detail, status);
}

const decoded = (part: string) => {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
};

/** Removes a proxy URL, or its `user:password@`, from a library's message, should one ever quote them. */
export function scrubProxy(message: string, proxyUrl: string): string {
  const { username, password } = new URL(proxyUrl);
  let out = message.split(proxyUrl).join(redactProxy(proxyUrl));
  if (username || password)
    for (const user of new Set([username, decoded(username)]))
      for (const pass of new Set([password, decoded(password)])) out = out.split(`${user}:${pass}`).join('***:***');
  return out;
}

/** Whether a tunnel goes to an address resolved here (else the name, for the proxy to resolve). */
export function resolvesHere(proxyUrl: string, guarded: boolean): boolean {
  const socks5h = proxyUrl.startsWith('socks5h:');
  return guarded ? !socks5h : proxyUrl.startsWith('socks5:');
}

/** Proxies are few (the configuration names them): one forwarding agent each is kept. */
const forwarders = new Map<string, http.Agent>();

/** The agent of a plain-HTTP request through an HTTP(S) proxy; null for SOCKS, which always tunnels (`TunnelAgent`). */
export function forwardingAgent(proxyUrl: string): http.Agent | null {
  if (proxyUrl.startsWith('socks')) return null;
  let agent = forwarders.get(proxyUrl);
  if (!agent) forwarders.set(proxyUrl, (agent = new HttpProxyAgent(proxyUrl)));
  return agent;
}

interface TunnelOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Ends a tunnel attempt: its socket destroyed, the promise settled once. */
function bounded<T extends Socket>(
  proxyUrl: string,
  options: TunnelOptions,
  open: (settle: (err: Error | null, socket?: T) => void) => Socket,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    let raw: Socket | undefined;
    const finish = (err: Error | null, socket?: T) => {
      if (done) return void socket?.destroy();
      done = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (err) {
        raw?.destroy();
        reject(err instanceof ProxyRefusedError ? err : new ProxyRefusedError(redactProxy(proxyUrl), scrubProxy(err.message, proxyUrl)));
      } else resolve(socket!);
    };
    const onAbort = () => finish(options.signal!.reason instanceof Error ? options.signal!.reason : new Error('aborted'));
    const timer = setTimeout(
      () => finish(new ProxyRefusedError(redactProxy(proxyUrl), `no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    raw = open(finish);
  });
}

/** A raw TCP connection to `host:port` through the proxy; `host` may be a name or an address. */
export function tunnelThrough(proxyUrl: string, host: string, port: number, options: TunnelOptions): Promise<Socket> {
  const proxy = new URL(proxyUrl);
  const user = decoded(proxy.username);
  const password = decoded(proxy.password);
  const proxyHost = proxy.hostname.replace(/^\[|\]$/g, '');
  if (proxy.protocol.startsWith('socks')) {
    return bounded(proxyUrl, options, (settle) => {
      const raw = net.connect({ host: proxyHost, port: Number(proxy.port || 1080) });
      const client = new SocksClient({
        proxy: { host: proxyHost, port: Number(proxy.port || 1080), type: 5, ...(user ? { userId: user, password } : {}) },
        destination: { host, port },
        command: 'connect',
        timeout: options.timeoutMs,
      });
      client.once('established', ({ socket }) => settle(null, socket as Socket));
      client.once('error', (err) => settle(err));
      raw.once('error', (err) => settle(err));
      raw.once('connect', () => client.connect(raw));
      return raw;
    });
  }
  const secureProxy = proxy.protocol === 'https:';
  const target = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  return bounded(proxyUrl, options, (settle) => {
    const request = (secureProxy ? https : http).request({
      host: proxyHost,
      port: Number(proxy.port || (secureProxy ? 443 : 80)),
      method: 'CONNECT',
      path: target,
      agent: false,
      headers: {
        host: target,
        ...(user ? { 'proxy-authorization': `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` } : {}),
      },
    });
    let raw: Socket | undefined;
    request.once('socket', (socket) => {
      raw = socket;
    });
    request.once('connect', (answer, socket: Socket, head: Buffer) => {
      if (answer.statusCode !== 200) {
        socket.destroy();
        return settle(statusRefusal(proxyUrl, answer.statusCode ?? 0));
      }
      if (head.length) socket.unshift(head);
      settle(null, socket);
    });
    request.once('error', (err) => settle(err));
    request.end();
    // The request's socket is what must go when the tunnel is abandoned.
    return {
      destroy: () => {
        request.destroy();
        raw?.destroy();
      },
    } as unknown as Socket;
  });
}

/**
 * The HTTP client's agent for one request through a tunnel: `resolve` (the SSRF guard's check)
 * turns the target name into the address to tunnel to, or is absent to send the name; TLS is set
 * up over the tunnel with the name, so the certificate is checked for the site asked for.
 */
export class TunnelAgent extends Agent {
  constructor(
    private readonly proxyUrl: string,
    private readonly tunnel: TunnelOptions & { resolve?: (host: string, port: number) => Promise<string>; ca?: string },
  ) {
    super();
  }

  async connect(_req: http.ClientRequest, opts: AgentConnectOpts): Promise<Socket> {
    const name = String(opts.host ?? '').replace(/^\[|\]$/g, '');
    const port = Number(opts.port);
    const target = this.tunnel.resolve ? await this.tunnel.resolve(name, port) : name;
    const socket = await tunnelThrough(this.proxyUrl, target, port, this.tunnel);
    if (!opts.secureEndpoint) return socket;
    return tls.connect({ socket, servername: net.isIP(name) ? undefined : name, ...(this.tunnel.ca ? { ca: this.tunnel.ca } : {}) });
  }
}
