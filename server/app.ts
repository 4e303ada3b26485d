/**
 * The HTTP edge (Elysia): authenticate, then hand the request to a route module's handler through
 * the route runner (server/route-runner.ts: rate limits, plan checks, body, charging). No business
 * logic lives here. The app mounts the route modules it is given (server/routes/index.ts by
 * default) that this server serves (cloud-only modules in cloud mode, the admin API with an admin
 * key), resolving each module's services once; `/openapi.json` and `/docs` describe them.
 * Public routes: `/`, `/health`, `/openapi.json`, `/docs` and its assets, `/dashboard` and its assets
 * and `/account` (their scripts call the API with the key), and routes marked `public` that check their
 * own credential (the watch feed's token); `/admin/…` needs the admin key; everything else needs an API key when one is
 * configured (always in cloud mode), and the key decides the workspace.
 */
import { Elysia } from 'elysia';
import type { Trawl } from '../core/container.ts';
import { badRequest, TrawlError } from '../core/errors.ts';
import { withRequestId } from '../core/logger.ts';
import { MetricsToken } from '../core/metrics.ts';
import { MeterToken, RateLimiterToken } from '../core/metering.ts';
import { ResultsTokens } from '../core/features/results/index.ts';
import { Tokens } from '../core/tokens.ts';
import { WorkspaceStoreToken } from '../core/storage/workspaces.ts';
import { ADMIN_CALLER, createAdminGuard, createAuthenticator, PUBLIC_CALLER } from './auth.ts';
import { errorResponse, notFound } from './errors.ts';
import { docsAsset, docsResponse, rootOpenApi, rootResponse } from './docs.ts';
import { accountPage } from './account-page/index.ts';
import { dashboardAsset } from './dashboard/assets.ts';
import { dashboardPage } from './dashboard/page.ts';
import { createRouteRunner } from './route-runner.ts';
import { createMcpHttpHandler, mcpOpenApi } from './mcp/http.ts';
import { createMetricsGuard, metricsOpenApi, metricsResponse } from './metrics-endpoint.ts';
import { createRequestObserver } from './observe.ts';
import { mountSockets } from './sockets.ts';
import { buildOpenApi } from './openapi.ts';
import { provide, type AnyRouteModule, type Caller, type Route, type RouteEnv } from './route.ts';
import { builtinRoutes } from './routes/index.ts';
import type { MountedApi } from './mounted.ts';

const PUBLIC_PATHS = new Set(['/', '/health', '/openapi.json', '/docs', '/dashboard', '/account']);
const isPublicPath = (path: string) => PUBLIC_PATHS.has(path) || path.startsWith('/docs/assets/') || path.startsWith('/dashboard/assets/');
const isAdminPath = (path: string) => path === '/admin' || path.startsWith('/admin/');

/** A WebSocket client cannot set headers: its API key comes as the first offered sub-protocol (as Firecrawl's SDK sends it). */
function socketKey(request: Request): string | null {
  if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket') return null;
  const offered = request.headers.get('sec-websocket-protocol')?.split(',')[0]?.trim();
  return offered ? `Bearer ${offered}` : null;
}

/**
 * A request whose line and headers pass `server.maxHeaderBytes`: the JSON 431 (Bun itself answers a
 * bare one only past its larger `--max-http-header-size`); undefined for any other.
 */
function oversizedHeaders(request: Request, maxBytes: number): Response | undefined {
  const url = new URL(request.url);
  let size = request.method.length + url.pathname.length + url.search.length + 'HTTP/1.1'.length + 4;
  for (const [name, value] of request.headers) size += name.length + value.length + 4;
  if (size <= maxBytes) return undefined;
  return Response.json(
    { error: `Request line and headers exceed ${maxBytes} bytes (server.maxHeaderBytes): send long input in a JSON body` },
    { status: 431 },
  );
}

/** Mounts the route modules this server serves; the HTTP app and the MCP server (server/mcp) run routes through it. */
export function mountApi(trawl: Trawl, modules: readonly AnyRouteModule[] = builtinRoutes): MountedApi {
  const { config, container } = trawl;
  const cloud = config.mode === 'cloud';
  const auth = createAuthenticator(container.resolve(WorkspaceStoreToken), config.apiKey, config.mode);
  const env: RouteEnv = { config, version: trawl.version, registry: trawl.registry };
  const served = modules.filter((module) => module.mounted?.(env) ?? true);
  const mounted = served.map((module) => ({ module, services: provide(module, (token) => container.resolve(token)) }));
  const routes: Route[] = mounted.flatMap(({ module, services }) => module.routes(services, env));
  const openapi = buildOpenApi(
    env,
    [...mounted.flatMap(({ module, services }) => module.openapi?.(services, env) ?? []), metricsOpenApi(config), mcpOpenApi, rootOpenApi],
    routes,
  );
  const run = createRouteRunner({
    config,
    logger: trawl.logger.child({ component: 'http' }),
    auth,
    meter: cloud ? container.resolve(MeterToken) : null,
    limiter: !cloud && config.rateLimit.perMinute !== undefined ? container.resolve(RateLimiterToken) : null,
    outputs: cloud && container.isRegistered(ResultsTokens.Outputs, true) ? container.resolve(ResultsTokens.Outputs) : null,
    metrics: container.resolve(MetricsToken),
  });
  return { routes, openapi, run, auth, env, mounted };
}

export function createApp(trawl: Trawl, modules: readonly AnyRouteModule[] = builtinRoutes) {
  const { config } = trawl;
  const api = mountApi(trawl, modules);
  const { routes, openapi, run, auth, env, mounted } = api;
  // Wire formats with their own error envelope, by path prefix (auth failures and unknown paths too).
  const envelopes = mounted.flatMap(({ module }) => (module.errors ? [module.errors] : []));
  const presenterFor = (path: string) => envelopes.find((envelope) => path.startsWith(envelope.prefix))?.present;
  const adminGuard = config.adminKey ? createAdminGuard(config.adminKey) : null;
  const logger = trawl.logger.child({ component: 'http' });
  const metrics = trawl.container.resolve(MetricsToken);
  const observer = createRequestObserver(metrics, logger);
  const metricsGuard = createMetricsGuard(config, auth);

  // Routes that check their own credential (the watch feed's token); static paths only.
  const selfAuthenticated = new Set(routes.filter((route) => route.public).map((route) => route.path));
  const authenticate = async (request: Request, path: string): Promise<Caller> => {
    if (isPublicPath(path) || selfAuthenticated.has(path)) return PUBLIC_CALLER;
    if (path === '/metrics') {
      await metricsGuard(request.headers.get('authorization'));
      return PUBLIC_CALLER;
    }
    if (adminGuard && isAdminPath(path)) {
      adminGuard(request.headers.get('authorization'));
      return ADMIN_CALLER;
    }
    return auth.authenticate(request.headers.get('authorization') ?? socketKey(request));
  };

  const app = new Elysia()
    .onRequest(({ request, set }) => {
      observer.start(request, set.headers);
      return oversizedHeaders(request, config.server.maxHeaderBytes);
    })
    .onAfterResponse(({ request, route, response }) => observer.finish(request, route, response))
    .onError(({ code, error, request, path }) => {
      const present = presenterFor(path);
      if (code === 'NOT_FOUND') return observer.failed(request, notFound(request.method, path, present));
      const failure = code === 'PARSE' ? badRequest('Request body is not valid JSON') : error;
      return observer.failed(
        request,
        withRequestId(observer.requestId(request), () => errorResponse(failure, logger, { method: request.method, path }, present)),
      );
    })
    // Async on purpose: Elysia awaits a derive only when it is declared async.
    .derive({ as: 'global' }, async ({ request, path }) => {
      const caller = await authenticate(request, path);
      observer.identify(request, caller);
      return { caller };
    })
    .get('/', ({ request }) => rootResponse(request, trawl.version))
    .get('/openapi.json', () => openapi)
    .get('/docs', () => docsResponse())
    .get(
      '/docs/assets/:tag/:file',
      ({ request, params, path }) => docsAsset(params.tag, params.file, request) ?? notFound(request.method, path),
    )
    // The page holds no data: its script asks for the key and calls the API with it.
    .get('/dashboard', () => {
      const { html, headers } = dashboardPage();
      return new Response(html, { headers });
    })
    .get('/dashboard/assets/:file', ({ request, params, path }) => dashboardAsset(params.file) ?? notFound(request.method, path))
    .get('/account', () => {
      const { html, headers } = accountPage(crypto.randomUUID().replaceAll('-', ''));
      return new Response(html, { headers });
    });

  // No route lets the framework read a body: the runner reads a declared `input` capped (server/body.ts),
  // handlers that take another body read it the same way, and any other body is never read.
  // Each answer's work runs in its request's logging context (core/logger.ts).
  const inContext = <T>(request: Request, work: () => T) => withRequestId(observer.requestId(request), work);
  for (const route of routes) {
    const present = presenterFor(route.path);
    app.route(
      route.method,
      route.path,
      ({ request, params, caller, server }) =>
        inContext(request, () => run(route, { request, params: params as Record<string, string>, server }, caller, present)),
      { parse: 'none' },
    );
  }
  mountSockets(
    app,
    mounted.flatMap(({ module, services }) => module.sockets?.(services, env) ?? []),
    {
      maxOpen: config.server.maxWebSockets,
      maxPerWorkspace: config.server.maxWebSocketsPerWorkspace,
      logger,
      authorizationOf: (request) => request.headers.get('authorization') ?? socketKey(request),
      async admit(authorization) {
        const caller = await auth.verify(authorization);
        return { caller, headers: await run.admitUpgrade(caller) };
      },
      stillValid: (authorization) =>
        auth.verify(authorization).then(
          () => true,
          (err) => (err instanceof TrawlError && err.status === 401 ? false : Promise.reject(err)),
        ),
    },
  );
  const mcp = createMcpHttpHandler(api, trawl.version, config.server.maxBodyBytes, metrics);
  app.all('/mcp', ({ request, caller }) => inContext(request, () => mcp(request, caller, observer.requestId(request))), { parse: 'none' });
  if (config.metrics.enabled) app.get('/metrics', () => metricsResponse(metrics));
  return app.all(
    '*',
    ({ request, path }) => {
      throw new TrawlError('not_found', `Not found: ${request.method} ${path}`);
    },
    { parse: 'none' },
  );
}

export type TrawlApp = ReturnType<typeof createApp>;

/** Starts listening; returns the bound port and a stop function. */
export function listen(
  trawl: Trawl,
  port = trawl.config.server.port,
  host = trawl.config.server.host,
  modules: readonly AnyRouteModule[] = builtinRoutes,
) {
  const app = createApp(trawl, modules);
  // Bun would answer a body over its own limit with a bare 413; readJsonBody streams and stops at
  // `server.maxBodyBytes` with the JSON one, so Bun's limit is only a backstop.
  app.listen({ port, hostname: host, maxRequestBodySize: Number.MAX_SAFE_INTEGER });
  const server = app.server!;
  // role "all": this process also runs the job workers (the features' job handlers).
  if (trawl.config.role === 'all') trawl.container.resolve(Tokens.Jobs).start();
  return {
    app,
    port: server.port as number,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${server.port}`,
    stop: async () => {
      await app.stop(true);
    },
  };
}
