/**
 * Crawls and batch scrapes in Firecrawl's v2 shape, over the crawl feature (core/features/crawl):
 * `POST /v2/crawl`, `GET /v2/crawl/{id}` (status with `skip`/`limit` pages and an absolute `next`),
 * `DELETE /v2/crawl/{id}`, `GET /v2/crawl/{id}/errors`, `GET /v2/crawl/active` (or `/ongoing`), and the same at
 * `/v2/batch/scrape`. `next` is given while more finished pages exist past this one, or while the
 * run goes on and this page had documents — never for an empty page of a running job, so the
 * SDK's auto-pagination (which follows `next` at once) ends instead of looping until the run does.
 */
import { CrawlTokens } from '../../../core/features/crawl/index.ts';
import { storedRequest } from '../../../core/features/crawl/legacy.ts';
import type { CrawlService } from '../../../core/features/crawl/service.ts';
import { ACTIVE_STATUSES, type RunKind, type RunRow } from '../../../core/features/crawl/rows.ts';
import { TrawlError } from '../../../core/errors.ts';
import { parseOrThrow } from '../../../core/validation.ts';
import type { TrawlConfig } from '../../../core/config-schema.ts';
import { defineRoutes, route, type Route } from '../../route.ts';
import { applyV2Proxy } from '../../wire/v2/proxy.ts';
import { checkJobId } from '../../wire/v2/errors.ts';
import { presentErrors, presentPage, presentRunStatus } from '../../wire/v2/present.ts';
import { v2BatchSchema, v2CrawlSchema, type V2Batch, type V2Crawl } from '../../wire/v2/run-request.ts';
import { v2FieldName } from '../../wire/v2/scrape-options.ts';
import { v2RunsOpenApi } from '../../wire/v2/runs.docs.ts';
import { publicBase, V2_ERRORS, warningOf } from './shared.ts';
import { crawlWatcherSocket } from './crawl-watcher-socket.ts';
import { pageQuery } from '../../wire/v2/runs.ts';

/** Failed pages listed by …/errors at most. */
const ERRORS_MAX = 1000;

/** Where each kind lives under /v2. */
const RUN_PATHS: Record<RunKind, string> = { crawl: '/v2/crawl', batch: '/v2/batch/scrape' };

/** The status page of a run; `base` is the public address for `next`. */
async function runStatus(
  service: CrawlService,
  run: RunRow,
  query: { skip: number; limit: number },
  base: string,
): Promise<Record<string, unknown>> {
  // The run is read before its pages: when it says it is over, every page is already committed.
  const pages = await service.pages(run, { offset: query.skip, limit: query.limit + 1, outcome: 'completed' });
  const shown = pages.slice(0, query.limit);
  const more = pages.length > query.limit || (ACTIVE_STATUSES.includes(run.status) && shown.length > 0);
  const next = more ? `${base}${RUN_PATHS[run.kind]}/${run.id}?skip=${query.skip + shown.length}&limit=${query.limit}` : null;
  const options = storedRequest(run.kind, run.request).scrapeOptions;
  return presentRunStatus(
    run,
    shown.map((page) => presentPage(page, options)),
    next,
  );
}

function started(run: RunRow, base: string, extra: Record<string, unknown>, warnings: string[]): Response {
  return Response.json({ success: true, id: run.id, url: `${base}${RUN_PATHS[run.kind]}/${run.id}`, ...extra, ...warningOf(warnings) });
}

function runRoutes(service: CrawlService, kind: RunKind, config: Readonly<TrawlConfig>): Route[] {
  const path = RUN_PATHS[kind];
  const find = (workspace: string, id: string) => service.find(workspace, kind, checkJobId(id));
  const start =
    kind === 'crawl'
      ? route<V2Crawl>({
          method: 'POST',
          path,
          input: v2CrawlSchema(service),
          // Pages are charged as they are scraped; starting needs credit for one.
          meter: { endpoint: 'crawl', requires: () => ({ crawlPage: 1 }), url: ({ request }) => request.url },
          async handle({ request, workspace, body, usage }) {
            applyV2Proxy(config, body.proxy, body.request.scrapeOptions, 'scrapeOptions.proxy');
            const run = await service.startCrawl(body.request, workspace, null, v2FieldName);
            usage.runId = run.id;
            return started(run, publicBase(config, request), {}, body.warnings);
          },
        })
      : route<V2Batch>({
          method: 'POST',
          path,
          input: v2BatchSchema(service),
          meter: { endpoint: 'batch', requires: () => ({ batchItem: 1 }) },
          async handle({ request, workspace, body, usage }) {
            applyV2Proxy(config, body.proxy, body.request.scrapeOptions);
            const run = await service.startBatch(body.request, workspace, v2FieldName);
            usage.runId = run.id;
            return started(
              run,
              publicBase(config, request),
              body.invalidURLs.length ? { invalidURLs: body.invalidURLs } : {},
              body.warnings,
            );
          },
        });
  return [
    start,
    {
      method: 'GET',
      path: `${path}/:id`,
      async handle({ params, request, workspace }) {
        const run = await find(workspace, params.id!);
        const query = parseOrThrow(pageQuery, Object.fromEntries(new URL(request.url).searchParams));
        return runStatus(service, run, query, publicBase(config, request));
      },
    },
    {
      method: 'DELETE',
      path: `${path}/:id`,
      async handle({ params, workspace }) {
        const id = checkJobId(params.id!);
        try {
          await service.cancel(workspace, kind, id);
        } catch (err) {
          if (err instanceof TrawlError && err.code === 'conflict')
            throw new TrawlError(
              'conflict',
              `${kind === 'crawl' ? 'Crawl' : 'Batch scrape'} is already ${(await find(workspace, id)).status}`,
            );
          throw err;
        }
        // Exactly what the SDK reads as a successful cancel (it ignores everything else).
        return { status: 'cancelled' };
      },
    },
    {
      method: 'GET',
      path: `${path}/:id/errors`,
      async handle({ params, workspace }) {
        const run = await find(workspace, params.id!);
        return presentErrors(run, await service.pages(run, { offset: 0, limit: ERRORS_MAX, outcome: 'failed' }));
      },
    },
  ];
}

/** The options of an active crawl as GET /v2/crawl/active lists them, in /v2 names. */
function activeOptions(run: RunRow): Record<string, unknown> {
  const request = storedRequest('crawl', run.request);
  return {
    limit: request.maxPages,
    maxDiscoveryDepth: request.maxDepth,
    includePaths: request.includePaths,
    excludePaths: request.excludePaths,
    allowSubdomains: request.allowSubdomains,
    allowExternalLinks: request.allowExternalLinks,
    crawlEntireDomain: request.pathPrefix === undefined,
  };
}

const needs = { service: CrawlTokens.Service };

export const v2RunsModule = defineRoutes({
  name: 'v2-runs',
  errors: V2_ERRORS,
  needs,
  routes: ({ service }, { config }) => [
    // Before `/v2/crawl/:id`, which would take `active` for an id; `ongoing` is Firecrawl's older name.
    ...['/v2/crawl/active', '/v2/crawl/ongoing'].map(
      (path): Route => ({
        method: 'GET',
        path,
        async handle({ workspace }) {
          const runs = await service.active(workspace, 'crawl');
          return {
            success: true,
            crawls: runs.map((run) => ({
              id: run.id,
              teamId: workspace,
              url: run.url,
              created_at: run.createdAt,
              options: activeOptions(run),
            })),
          };
        },
      }),
    ),
    ...runRoutes(service, 'crawl', config),
    ...runRoutes(service, 'batch', config),
  ],
  sockets: ({ service }) => [crawlWatcherSocket(service, 'crawl', RUN_PATHS.crawl), crawlWatcherSocket(service, 'batch', RUN_PATHS.batch)],
  openapi: ({ service }) => v2RunsOpenApi(service),
});
