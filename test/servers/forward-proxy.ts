/**
 * Forward proxies on 127.0.0.1 for tests, the two kinds operators put in front of a scraper:
 * an HTTP proxy (absolute-URI requests for http:// targets, CONNECT tunnels for https://, optional
 * Basic credentials answered with 407) and a SOCKS5 proxy (RFC 1928 CONNECT with RFC 1929
 * username/password). Each records every target it was asked for, in the form it was asked
 * (a name or an address), so tests can count what passed through and see what a proxy never saw.
 */
import http, { type IncomingMessage } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export interface ProxyRequestRecord {
  /** `host:port` as the client named it (a name, or an address for SOCKS5 address requests). */
  target: string;
  /** `connect` (CONNECT/SOCKS tunnel) or `forward` (HTTP absolute-URI request). */
  kind: 'connect' | 'forward';
  /** The full URL for forwarded requests. */
  url?: string;
  /** SOCKS5 address type: `name` (ATYP 3) or `address` (ATYP 1/4). */
  addressType?: 'name' | 'address';
  /** False when the proxy refused the client's credentials. */
  authorized: boolean;
  /** Raw Proxy-Authorization header or SOCKS `user:pass`, to prove which credentials were used. */
  credentials?: string;
}

export interface TestProxy {
  /** e.g. `http://user:pass@127.0.0.1:1234` (with credentials when the proxy wants them). */
  url: string;
  port: number;
  seen: ProxyRequestRecord[];
  close(): Promise<void>;
}

interface ProxyOptions {
  /** Credentials the proxy requires (`user:password`); none means open. */
  auth?: string;
  /** Names this proxy resolves itself (its own DNS), e.g. `{ 'www.site.test': '127.0.0.1' }`. */
  resolve?: Record<string, string>;
}

const resolver = (options: ProxyOptions) => (host: string) => options.resolve?.[host.toLowerCase()] ?? host;

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

function tracker() {
  const sockets = new Set<Duplex>();
  return {
    track(socket: Duplex) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      socket.on('error', () => {});
    },
    destroyAll() {
      for (const socket of sockets) socket.destroy();
    },
  };
}

function withCredentials(scheme: string, port: number, auth?: string): string {
  return `${scheme}://${auth ? `${auth.split(':').map(encodeURIComponent).join(':')}@` : ''}127.0.0.1:${port}`;
}

/** An HTTP forward proxy. */
export async function startHttpProxy(options: ProxyOptions = {}): Promise<TestProxy> {
  const seen: ProxyRequestRecord[] = [];
  const sockets = tracker();
  const resolve = resolver(options);
  const expected = options.auth ? `Basic ${Buffer.from(options.auth).toString('base64')}` : null;
  const authorized = (req: IncomingMessage) => !expected || req.headers['proxy-authorization'] === expected;

  const server = http.createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return res.writeHead(400).end('absolute URI required');
    }
    const ok = authorized(req);
    seen.push({ target: url.host, kind: 'forward', url: url.href, authorized: ok, credentials: req.headers['proxy-authorization'] });
    if (!ok) return res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
    // A forwarding proxy says so (RFC 9110 Via): fixture sites tell proxied requests by it.
    const headers: Record<string, string | string[] | undefined> = { ...req.headers, via: '1.1 trawl-test-proxy' };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = http.request(
      { host: resolve(url.hostname), port: url.port || 80, path: `${url.pathname}${url.search}`, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    req.pipe(upstream);
  });
  server.on('connection', (s) => sockets.track(s));
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.track(client);
    const ok = authorized(req);
    const target = req.url ?? '';
    seen.push({ target, kind: 'connect', authorized: ok, credentials: req.headers['proxy-authorization'] });
    if (!ok)
      return client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n',
      );
    const at = target.lastIndexOf(':');
    const upstream = net.connect({ host: resolve(target.slice(0, at).replace(/^\[|\]$/g, '')), port: Number(target.slice(at + 1)) });
    sockets.track(upstream);
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.once('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'));
    client.once('close', () => upstream.destroy());
  });
  const port = await listen(server);
  return {
    url: withCredentials('http', port, options.auth),
    port,
    seen,
    async close() {
      sockets.destroyAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Reads exactly `n` bytes from a socket in paused mode. */
function reader(socket: Socket) {
  let buffered = Buffer.alloc(0);
  let waiting: { n: number; resolve: (b: Buffer) => void } | null = null;
  const pump = () => {
    if (waiting && buffered.length >= waiting.n) {
      const { n, resolve } = waiting;
      waiting = null;
      const out = buffered.subarray(0, n);
      buffered = buffered.subarray(n);
      resolve(out);
    }
  };
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    pump();
  };
  socket.on('data', onData);
  return {
    read: (n: number) =>
      new Promise<Buffer>((resolve) => {
        waiting = { n, resolve };
        pump();
      }),
    /** Stops reading and hands back whatever arrived beyond the handshake. */
    release(): Buffer {
      socket.off('data', onData);
      return buffered;
    },
  };
}

/** A SOCKS5 proxy (CONNECT only). */
export async function startSocksProxy(options: ProxyOptions = {}): Promise<TestProxy> {
  const seen: ProxyRequestRecord[] = [];
  const sockets = tracker();
  const resolve = resolver(options);

  const handshake = async (client: Socket) => {
    const input = reader(client);
    const [version, methodCount] = await input.read(2);
    if (version !== 5) return client.destroy();
    const methods = [...(await input.read(methodCount!))];
    const wanted = options.auth ? 2 : 0;
    if (!methods.includes(wanted)) return client.end(Buffer.from([5, 0xff]));
    client.write(Buffer.from([5, wanted]));
    let credentials: string | undefined;
    let ok = true;
    if (options.auth) {
      const [, userLength] = await input.read(2);
      const user = (await input.read(userLength!)).toString();
      const [passLength] = await input.read(1);
      const pass = (await input.read(passLength!)).toString();
      credentials = `${user}:${pass}`;
      ok = credentials === options.auth;
      client.write(Buffer.from([1, ok ? 0 : 1]));
    }
    const [, command, , addressType] = await input.read(4);
    let host: string;
    if (addressType === 1) host = [...(await input.read(4))].join('.');
    else if (addressType === 4) host = (await input.read(16)).toString('hex').match(/.{4}/g)!.join(':');
    else host = (await input.read((await input.read(1))[0]!)).toString();
    const port = (await input.read(2)).readUInt16BE(0);
    const target = addressType === 4 ? `[${host}]:${port}` : `${host}:${port}`;
    seen.push({ target, kind: 'connect', addressType: addressType === 3 ? 'name' : 'address', authorized: ok, credentials });
    if (!ok) return client.destroy();
    if (command !== 1) return client.end(Buffer.from([5, 7, 0, 1, 0, 0, 0, 0, 0, 0]));
    const upstream = net.connect({ host: resolve(host), port });
    sockets.track(upstream);
    upstream.once('connect', () => {
      client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
      const rest = input.release();
      if (rest.length) upstream.write(rest);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.once('error', () => client.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])));
    client.once('close', () => upstream.destroy());
  };

  const server = net.createServer((client) => {
    sockets.track(client);
    handshake(client).catch(() => client.destroy());
  });
  const port = await listen(server);
  return {
    url: withCredentials('socks5', port, options.auth),
    port,
    seen,
    async close() {
      sockets.destroyAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
