/**
 * Starts a real Trawl HTTP server on 127.0.0.1 for end-to-end tests, booted through the same path
 * as `bun start`, with test settings layered on top (quiet logs, in-memory or throwaway storage).
 */
import type { Logger } from 'pino';
import { deepMerge } from '../../core/config.ts';
import type { Trawl } from '../../core/container.ts';
import type { Storage } from '../../core/services.ts';
import type { HttpClientHooks } from '../../core/net/http-client.ts';
import type { AnyFeature } from '../../core/feature.ts';
import type { AnyRouteModule } from '../../server/route.ts';
import { listen } from '../../server/app.ts';
import { bootTrawl } from '../../server/boot.ts';

export interface TestServer {
  url: string;
  trawl: Trawl;
  /** POSTs JSON (or a raw string body) and returns status, parsed body and headers. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  /** Any method; an object `body` is sent as JSON. */
  call(
    path: string,
    init: { method: string; headers?: Record<string, string>; body?: unknown },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  stop(): Promise<void>;
}

export interface TestServerOptions {
  overrides?: Record<string, unknown>;
  env?: Record<string, string>;
  storage?: Storage;
  /** Instead of the built-in lists (a test adding a fixture feature passes both). */
  features?: readonly AnyFeature[];
  routes?: readonly AnyRouteModule[];
  /** Instead of a silent logger (a test that reads the log lines). */
  logger?: Logger;
  /** The HTTP client's test hooks (an address policy for SSRF tests). */
  httpHooks?: HttpClientHooks;
}

export async function startTrawlServer(options: TestServerOptions = {}): Promise<TestServer> {
  const trawl = await bootTrawl({
    env: options.env ?? {},
    storage: options.storage,
    features: options.features,
    logger: options.logger,
    httpHooks: options.httpHooks,
    overrides: deepMerge(
      { log: { level: 'silent' }, storage: { dataDir: ':memory:' }, fetch: { allowPrivateNetwork: true, timeoutMs: 5000 } },
      options.overrides ?? {},
    ),
  });
  let running: ReturnType<typeof listen>;
  try {
    running = listen(trawl, 0, '127.0.0.1', options.routes);
  } catch (err) {
    // A route's service refused the configuration: nothing may stay open behind the failure.
    await trawl.shutdown();
    throw err;
  }
  const call = async (path: string, init: RequestInit) => {
    const response = await fetch(`${running.url}${path}`, init);
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: response.status, body, headers: response.headers };
  };
  return {
    url: running.url,
    trawl,
    post: (path, body, headers = {}) =>
      call(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    get: (path, headers = {}) => call(path, { headers }),
    call: (path, init) =>
      call(path, {
        method: init.method,
        headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
        body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
      }),
    async stop() {
      await running.stop();
      await trawl.shutdown();
    },
  };
}
