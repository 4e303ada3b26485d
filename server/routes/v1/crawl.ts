/**
 * Crawls over HTTP: `POST /v1/crawl`, `GET /v1/crawl/{id}` (summary and first results),
 * `GET /v1/crawl/{id}/pages`, `GET /v1/crawl/{id}/stream` (Server-Sent Events, resumable with
 * Last-Event-ID), `GET /v1/crawl/history`, `POST /v1/crawl/{id}/retry` and `DELETE /v1/crawl/{id}`.
 * Everything is scoped to the caller's workspace; unknown and foreign ids answer 404. The OpenAPI
 * is in server/wire/v1/crawl.docs.ts; batch.ts shares the run routes.
 */
import { CrawlTokens, crawlFeature } from '../../../core/features/crawl/index.ts';
import { pageItem as pageWithResult, runSummary } from '../../../core/features/crawl/present.ts';
import type { CrawlService } from '../../../core/features/crawl/service.ts';
import type { PageRow, RunKind, RunRow } from '../../../core/features/crawl/rows.ts';
import { runEvents } from '../../../core/features/crawl/stream.ts';
import type { Window } from '../../../core/storage/values.ts';
import { parseOrThrow } from '../../../core/validation.ts';
import type { BatchRequest, CrawlRequest } from '../../../core/features/crawl/schema.ts';
import { nextLink, pagedQuery, pageFrom, pageOf } from '../../pagination.ts';
import { crawlOpenApi } from '../../wire/v1/crawl.docs.ts';
import { defineRoutes, route, type Route, type RouteRequest } from '../../route.ts';
import { v1Field } from '../../wire/v1/names.ts';
import { presentResult } from '../../wire/v1/present.ts';
import { v1BatchSchema, v1CrawlSchema } from '../../wire/v1/request.ts';
import { pagesQuery, resumeQuery, type ResumeQuery } from '../../wire/v1/crawl.ts';

const HEARTBEAT_MS = 15_000;
const pageItem = (page: PageRow) => pageWithResult(page, presentResult);

/** 202 with where to poll: the run exists and its pages are queued. */
function accepted(run: RunRow, path: string): Response {
  const body: Record<string, unknown> = { id: run.id, status: run.status };
  if (run.url) body.url = run.url;
  body.created_at = run.createdAt;
  if (run.retryOf) body.retry_of = run.retryOf;
  return Response.json(body, { status: 202, headers: { location: `${path}/${run.id}` } });
}

/**
 * The run's summary (its `total` is the run's page count) with one slice of its results; `next`
 * (at `pagesPath`) only when more results exist.
 */
async function statusWithResults(service: CrawlService, run: RunRow, request: Request, page: Window, pagesPath: string) {
  const pages = await service.pages(run, { offset: page.offset, limit: page.limit + 1 });
  const body: Record<string, unknown> = {
    ...runSummary(run),
    limit: page.limit,
    offset: page.offset,
    data: pages.slice(0, page.limit).map(pageItem),
  };
  if (pages.length > page.limit) body.next = nextLink(request, page, pagesPath);
  return body;
}

/** Server-Sent Events of a run: `page` events with `id:` = sequence number, then `end`. */
function eventStream(
  service: CrawlService,
  target: { workspace: string; kind: RunKind; id: string },
  { request, server, query }: RouteRequest<unknown, ResumeQuery>,
): Response {
  const header = request.headers.get('last-event-id')?.trim();
  const lastSeq = header ? parseOrThrow(resumeQuery, { last_event_id: header }).last_event_id : query.last_event_id;
  // The connection is meant to stay open; Bun would otherwise close it after its idle timeout.
  server?.timeout?.(request, 0);
  const abort = new AbortController();
  const encoder = new TextEncoder();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        if (!abort.signal.aborted) controller.enqueue(encoder.encode(text));
      };
      send('retry: 2000\n\n');
      heartbeat = setInterval(() => send(': keep-alive\n\n'), HEARTBEAT_MS);
      try {
        for await (const event of runEvents(service, target, lastSeq, abort.signal, presentResult)) {
          send(`${event.id === undefined ? '' : `id: ${event.id}\n`}event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`);
        }
      } catch (err) {
        send(`event: error\ndata: ${JSON.stringify({ error: err instanceof Error ? err.message : 'stream failed' })}\n\n`);
      } finally {
        clearInterval(heartbeat);
        if (!abort.signal.aborted) controller.close();
      }
    },
    cancel() {
      clearInterval(heartbeat);
      abort.abort();
    },
  });
  request.signal.addEventListener('abort', () => abort.abort(), { once: true });
  return new Response(stream, {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' },
  });
}

/**
 * What crawls and batches both answer at `/v1/<kind>`: start (202 with where to poll), status with
 * the first results, the event stream and cancel. `statusNext` is where the status's `next` points.
 */
export function runRoutes(service: CrawlService, kind: RunKind, statusNext: (id: string) => string): Route[] {
  const base = `/v1/${kind}`;
  const find = (id: string, workspace: string) => service.find(workspace, kind, id);
  return [
    kind === 'crawl'
      ? route<CrawlRequest>({
          method: 'POST',
          path: base,
          input: v1CrawlSchema(service),
          // Pages are charged as they are scraped (the crawl feature declares their unit); starting needs credit for one.
          meter: { endpoint: 'crawl', requires: () => ({ crawlPage: 1 }), url: (body) => body.url },
          async handle({ workspace, body, usage }) {
            const run = await service.startCrawl(body, workspace, null, v1Field);
            usage.runId = run.id;
            return accepted(run, base);
          },
        })
      : route<BatchRequest>({
          method: 'POST',
          path: base,
          input: v1BatchSchema(service),
          meter: { endpoint: 'batch', requires: () => ({ batchItem: 1 }) },
          async handle({ workspace, body, usage }) {
            const run = await service.startBatch(body, workspace, v1Field);
            usage.runId = run.id;
            return accepted(run, base);
          },
        }),
    route({
      method: 'GET',
      path: `${base}/:id`,
      query: pagedQuery(),
      async handle({ params, request, workspace, query }) {
        const run = await find(params.id!, workspace);
        return statusWithResults(service, run, request, pageFrom(query), statusNext(run.id));
      },
    }),
    route({
      method: 'GET',
      path: `${base}/:id/stream`,
      query: resumeQuery,
      async handle(input) {
        const run = await find(input.params.id!, input.workspace);
        return eventStream(service, { workspace: input.workspace, kind, id: run.id }, input);
      },
    }),
    {
      method: 'DELETE',
      path: `${base}/:id`,
      async handle({ params, workspace }) {
        const run = await service.cancel(workspace, kind, params.id!);
        return { id: run.id, status: run.status };
      },
    },
  ];
}

/** Crawls add their history, the paginated result list and retry to the common routes. */
function crawlRoutes(service: CrawlService): Route[] {
  return [
    route({
      method: 'GET',
      path: '/v1/crawl/history',
      query: pagedQuery(),
      async handle({ request, workspace, query }) {
        const page = pageFrom(query);
        const { items, total } = await service.history(workspace, page);
        return pageOf('crawls', items.map(runSummary), total, page, request);
      },
    }),
    ...runRoutes(service, 'crawl', (id) => `/v1/crawl/${id}/pages`),
    route({
      method: 'GET',
      path: '/v1/crawl/:id/pages',
      query: pagesQuery,
      async handle({ params, request, workspace, query }) {
        const run = await service.find(workspace, 'crawl', params.id!);
        const page = pageFrom(query);
        const { status } = query;
        const total = status === 'completed' ? run.completed : status === 'failed' ? run.failed : run.completed + run.failed;
        const pages = await service.pages(run, { ...page, outcome: status });
        return pageOf('data', pages.map(pageItem), total, page, request);
      },
    }),
    route({
      method: 'POST',
      path: '/v1/crawl/:id/retry',
      meter: { endpoint: 'crawl', requires: () => ({ crawlPage: 1 }) },
      async handle({ params, workspace, usage }) {
        const run = await service.retry(workspace, params.id!);
        usage.runId = run.id;
        usage.url = run.url ?? undefined;
        return accepted(run, '/v1/crawl');
      },
    }),
  ];
}

/** Crawl and batch share one service; batch.ts names the same needs. */
export const crawlNeeds = { service: CrawlTokens.Service, limits: crawlFeature.settingsToken };

export const crawlModule = defineRoutes({
  name: 'crawl',
  needs: crawlNeeds,
  routes: ({ service }) => crawlRoutes(service),
  openapi: ({ service, limits }) => crawlOpenApi(service, limits),
});
