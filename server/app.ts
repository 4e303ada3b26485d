/**
 * The HTTP edge (Elysia): authenticate, read and validate input, call the core, serialise. No
 * business logic lives here. Public routes: `/health`, `/openapi.json`, `/docs`; everything else
 * needs the API key when one is configured.
 */
import { Elysia } from 'elysia';
import type { Trawl } from '../core/container.ts';
import { TrawlError } from '../core/errors.ts';
import { createAuthenticator } from './auth.ts';
import { errorResponse, notFound } from './errors.ts';
import { docsPage } from './docs.ts';
import { buildOpenApi } from './openapi.ts';
import { healthRoute } from './routes/health.ts';
import { pluginsRoute } from './routes/v1/plugins.ts';
import { scrapeRoute } from './routes/v1/scrape.ts';
import { mapRoute } from './routes/v1/map.ts';
import { webhookRoutes } from './routes/v1/webhooks.ts';
import { crawlRoutes } from './routes/v1/crawl.ts';
import { batchRoutes } from './routes/v1/batch.ts';
import { Tokens } from '../core/services.ts';

const PUBLIC_PATHS = new Set(['/health', '/openapi.json', '/docs']);

export function createApp(trawl: Trawl) {
  const auth = createAuthenticator(trawl.config.apiKey);
  const logger = trawl.logger.child({ component: 'http' });
  const openapi = buildOpenApi(trawl);
  const webhooks = webhookRoutes(trawl);
  const crawl = crawlRoutes(trawl);
  const batch = batchRoutes(trawl);

  return new Elysia()
    .onError(({ code, error, request, path }) => {
      if (code === 'NOT_FOUND') return notFound(request.method, path);
      if (code === 'PARSE') return Response.json({ error: 'Request body is not valid JSON' }, { status: 400 });
      return errorResponse(error, logger, { method: request.method, path });
    })
    .derive({ as: 'global' }, ({ request, path }) => {
      if (PUBLIC_PATHS.has(path)) return { workspace: 'default' };
      return { workspace: auth.authenticate(request.headers.get('authorization')) };
    })
    .get('/health', () => healthRoute(trawl))
    .get('/openapi.json', () => openapi)
    .get('/docs', () => new Response(docsPage(), { headers: { 'content-type': 'text/html; charset=utf-8' } }))
    .get('/v1/plugins', () => pluginsRoute(trawl))
    .post('/v1/scrape', ({ request, workspace }) => scrapeRoute(trawl, request, workspace), { parse: 'none' })
    .post('/v1/map', ({ request, workspace }) => mapRoute(trawl, request, workspace), { parse: 'none' })
    .post('/v1/webhooks', ({ request, workspace }) => webhooks.create(request, workspace), { parse: 'none' })
    .get('/v1/webhooks', ({ request, workspace }) => webhooks.list(request, workspace))
    .get('/v1/webhooks/:id', ({ params, workspace }) => webhooks.get(params.id, workspace))
    .patch('/v1/webhooks/:id', ({ params, request, workspace }) => webhooks.update(params.id, request, workspace), { parse: 'none' })
    .delete('/v1/webhooks/:id', ({ params, workspace }) => webhooks.remove(params.id, workspace))
    .get('/v1/webhooks/:id/deliveries', ({ params, request, workspace }) => webhooks.deliveries(params.id, request, workspace))
    .post('/v1/crawl', ({ request, workspace }) => crawl.start(request, workspace), { parse: 'none' })
    .get('/v1/crawl/history', ({ request, workspace }) => crawl.history(request, workspace))
    .get('/v1/crawl/:id', ({ params, request, workspace }) => crawl.status(params.id, request, workspace))
    .get('/v1/crawl/:id/pages', ({ params, request, workspace }) => crawl.pages(params.id, request, workspace))
    .get('/v1/crawl/:id/stream', ({ params, request, workspace, server }) => crawl.stream(params.id, request, workspace, server))
    .post('/v1/crawl/:id/retry', ({ params, workspace }) => crawl.retry(params.id, workspace), { parse: 'none' })
    .delete('/v1/crawl/:id', ({ params, workspace }) => crawl.cancel(params.id, workspace))
    .post('/v1/batch', ({ request, workspace }) => batch.start(request, workspace), { parse: 'none' })
    .get('/v1/batch/:id', ({ params, request, workspace }) => batch.status(params.id, request, workspace))
    .get('/v1/batch/:id/stream', ({ params, request, workspace, server }) => batch.stream(params.id, request, workspace, server))
    .delete('/v1/batch/:id', ({ params, workspace }) => batch.cancel(params.id, workspace))
    .all('*', ({ request, path }) => {
      throw new TrawlError('not_found', `Not found: ${request.method} ${path}`);
    });
}

export type TrawlApp = ReturnType<typeof createApp>;

/** Starts listening; returns the bound port and a stop function. */
export function listen(trawl: Trawl, port = trawl.config.server.port, host = trawl.config.server.host) {
  const app = createApp(trawl);
  app.listen({ port, hostname: host, maxRequestBodySize: trawl.config.server.maxBodyBytes + 1024 });
  const server = app.server!;
  // role "all": this process also runs the job workers (crawl and batch pages, webhook deliveries).
  if (trawl.config.role === 'all') trawl.container.resolve(Tokens.Jobs).start();
  return {
    app,
    port: server.port as number,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${server.port}`,
    stop: async () => { await app.stop(true); },
  };
}
