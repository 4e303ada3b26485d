/**
 * A tiny fixture web site on 127.0.0.1 for tests: routes map a path to a body (string, bytes or a
 * handler). Every test that needs "the internet" talks to one of these instead.
 */
export type Route =
  | string
  | Uint8Array
  | { body?: string | Uint8Array; status?: number; headers?: Record<string, string>; delayMs?: number }
  | ((req: Request, server: FixtureSite) => Response | Promise<Response>);

export interface FixtureSite {
  url: string;
  port: number;
  /** Absolute URL of a path on this site. */
  at(path: string): string;
  /** Paths requested so far, in order (with query string). */
  hits: string[];
  stop(): Promise<void>;
}

/** Copies bytes into a plain ArrayBuffer-backed view, the only byte body type Response accepts. */
const asBody = (body: string | Uint8Array) => (typeof body === 'string' ? body : new Uint8Array(body));

export function startFixtureSite(routes: Record<string, Route>): FixtureSite {
  const hits: string[] = [];
  const site = {} as FixtureSite;
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 60,
    async fetch(req) {
      const url = new URL(req.url);
      hits.push(url.pathname + url.search);
      const route = routes[url.pathname + url.search] ?? routes[url.pathname];
      if (route === undefined) return new Response('not found', { status: 404 });
      if (typeof route === 'function') return route(req, site);
      if (typeof route === 'string' || route instanceof Uint8Array) {
        return new Response(asBody(route), { headers: { 'content-type': 'text/html; charset=utf-8' } });
      }
      if (route.delayMs) await Bun.sleep(route.delayMs);
      return new Response(asBody(route.body ?? ''), {
        status: route.status ?? 200,
        headers: { 'content-type': 'text/html; charset=utf-8', ...route.headers },
      });
    },
  });
  Object.assign(site, {
    url: `http://127.0.0.1:${server.port}`,
    port: server.port,
    at: (path: string) => `http://127.0.0.1:${server.port}${path}`,
    hits,
    stop: async () => { await server.stop(true); },
  });
  return site;
}
