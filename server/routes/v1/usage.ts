/**
 * GET /v1/usage (cloud mode): the workspace's balance and plan, its credits and runs by endpoint and
 * by UTC day over a range (`from`, `to`; the last 30 days by default), and the runs themselves,
 * newest first and paginated — one row per billable call or crawl/batch run, with what it cost.
 * Billing: admin keys only (`admin`: 403 for a member key).
 */
import { z } from 'zod';
import { UsageToken, type UsageRun } from '../../../core/features/accounts/usage.ts';
import { TrawlError } from '../../../core/errors.ts';
import { MeterToken } from '../../../core/metering.ts';
import { AccountsToken } from '../../../core/features/accounts/accounts.ts';
import { dateTime, errorBody, jsonBody, pageFields, paging, PAGING_ERROR } from '../../openapi-shapes.ts';
import { pagedQuery, pageFrom, pageOf } from '../../pagination.ts';
import { defineRoutes, route } from '../../route.ts';

const DAY_MS = 86_400_000;
const MAX_RANGE_DAYS = 366;

const instant = z.string().max(40).refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 date or time').transform((v) => new Date(Date.parse(v)));
const usageQuery = pagedQuery({
  from: instant.optional(),
  to: instant.optional(),
  endpoint: z.string().min(1).max(64).optional(),
});

export const presentRun = (run: UsageRun) => ({
  id: run.id, endpoint: run.endpoint, url: run.url, credits: run.credits, status: run.status, error: run.error,
  duration_ms: run.durationMs, result_id: run.resultId, run_id: run.runId, created_at: run.createdAt, finished_at: run.finishedAt,
});

/** `from` inclusive, `to` exclusive; by default the 30 days up to now. */
function rangeOf(query: z.output<typeof usageQuery>) {
  const to = query.to ?? new Date(Date.now() + 1000);
  const from = query.from ?? new Date(to.getTime() - 30 * DAY_MS);
  if (from >= to) throw new TrawlError('bad_request', 'Invalid field from: must be before to');
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) throw new TrawlError('bad_request', `Invalid field from: the range may span at most ${MAX_RANGE_DAYS} days`);
  return { from: from.toISOString(), to: to.toISOString(), ...(query.endpoint ? { endpoint: query.endpoint } : {}) };
}

const counts = { runs: { type: 'integer' }, credits: { type: 'integer' } };
const runSchema = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'The usage-log id (the `X-Usage-Id` header of the call); GET /v1/results/run/{id} returns its output.' },
    endpoint: { type: 'string' }, url: { type: ['string', 'null'] },
    credits: { type: 'integer', description: 'What the call cost; a crawl\'s or batch\'s grows as its pages are scraped.' },
    status: { enum: ['succeeded', 'failed', 'running'], description: '`failed` calls were refunded; `running`: a run whose pages were charged before its call was recorded.' },
    error: { type: ['string', 'null'] }, duration_ms: { type: 'integer' },
    result_id: { type: ['string', 'null'], description: 'The stored result (GET /v1/results/{id}).' },
    run_id: { type: ['string', 'null'], description: 'The crawl or batch the call started.' },
    created_at: dateTime('When the call started'), finished_at: dateTime('When the call ended', true),
  },
};

const usageOpenApi = {
  paths: {
    '/v1/usage': {
      get: {
        summary: 'Balance, plan and usage of the workspace',
        description: 'Totals over `from` (inclusive) to `to` (exclusive), by endpoint and by UTC day, and the runs of that range newest first. ' +
          `Default range: the last 30 days; at most ${MAX_RANGE_DAYS} days. \`endpoint\` narrows totals and runs to one endpoint.`,
        parameters: [
          { name: 'from', in: 'query', schema: { type: 'string', format: 'date-time' } },
          { name: 'to', in: 'query', schema: { type: 'string', format: 'date-time' } },
          { name: 'endpoint', in: 'query', schema: { type: 'string' } },
          ...paging,
        ],
        responses: {
          200: jsonBody({
            type: 'object',
            properties: {
              workspace: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
              plan: { type: 'string' }, status: { type: 'string' }, balance: { type: 'integer' }, rate_limit_per_minute: { type: 'integer' },
              from: dateTime('Start of the range'), to: dateTime('End of the range'),
              totals: {
                type: 'object',
                properties: {
                  ...counts,
                  by_endpoint: { type: 'array', items: { type: 'object', properties: { endpoint: { type: 'string' }, ...counts } } },
                  by_day: { type: 'array', items: { type: 'object', properties: { day: { type: 'string', format: 'date' }, ...counts } } },
                  by_day_endpoint: { type: 'array', description: 'Each day\'s counts per endpoint, by day then endpoint.', items: { type: 'object', properties: { day: { type: 'string', format: 'date' }, endpoint: { type: 'string' }, ...counts } } },
                },
              },
              runs: { type: 'array', items: runSchema },
              ...pageFields,
            },
          }, 'Usage'),
          400: errorBody(`Invalid from or to; ${PAGING_ERROR}`),
          401: errorBody('Invalid or missing API key'),
          403: errorBody('A member key: billing needs an admin key'),
        },
      },
    },
  },
};

export const usageModule = defineRoutes({
  name: 'usage',
  mounted: (env) => env.config.mode === 'cloud',
  needs: { usage: UsageToken, meter: MeterToken, accounts: AccountsToken },
  routes: ({ usage, meter, accounts }, env) => [route({
    method: 'GET', path: '/v1/usage', query: usageQuery, admin: 'reading the usage and billing of the workspace',
    async handle({ request, workspace, query }) {
      const range = rangeOf(query);
      const page = pageFrom(query);
      // This process's own calls are in the log before it is read (their outcomes are written behind the answers).
      await meter.settle();
      const [account, totals, runs] = await Promise.all([
        // Read now: the caller's remembered account may be seconds old, and this answer is about the balance.
        accounts.getWorkspace(workspace),
        usage.totals(workspace, range),
        usage.runs(workspace, range, page),
      ]);
      if (!account) throw new TrawlError('not_found', 'Workspace not found');
      return {
        workspace: { id: account.id, name: account.name },
        plan: account.plan,
        status: account.status,
        balance: account.credits,
        rate_limit_per_minute: account.rateLimit ?? env.config.plans[account.plan].rateLimitPerMinute,
        from: range.from,
        to: range.to,
        totals: { runs: totals.runs, credits: totals.credits, by_endpoint: totals.byEndpoint, by_day: totals.byDay, by_day_endpoint: totals.byDayEndpoint },
        ...pageOf('runs', runs.items.map(presentRun), runs.total, page, request),
      };
    },
  })],
  openapi: () => usageOpenApi,
});
