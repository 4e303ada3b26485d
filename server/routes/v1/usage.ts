/**
 * GET /v1/usage (cloud mode): the workspace's balance and plan, its credits and runs by endpoint and
 * by UTC day over a range (`from`, `to`; the last 30 days by default), and the runs themselves,
 * newest first and paginated — one row per billable call or crawl/batch run, with what it cost.
 * Billing: admin keys only (`admin`: 403 for a member key).
 */
import type { z } from 'zod';
import { UsageToken } from '../../../core/features/accounts/usage.ts';
import { TrawlError } from '../../../core/errors.ts';
import { MeterToken } from '../../../core/metering.ts';
import { rateLimitOf } from '../../../core/storage/workspaces.ts';
import { AccountsToken } from '../../../core/features/accounts/accounts.ts';
import { pageFrom, pageOf } from '../../pagination.ts';
import { defineRoutes, route } from '../../route.ts';
import { usageOpenApi } from '../../wire/v1/usage.docs.ts';
import { MAX_RANGE_DAYS, presentRun, usageQuery } from '../../wire/v1/usage.ts';

const DAY_MS = 86_400_000;

/** `from` inclusive, `to` exclusive; by default the 30 days up to now. */
function rangeOf(query: z.output<typeof usageQuery>) {
  const to = query.to ?? new Date(Date.now() + 1000);
  const from = query.from ?? new Date(to.getTime() - 30 * DAY_MS);
  if (from >= to) throw new TrawlError('bad_request', 'Invalid field from: must be before to');
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS)
    throw new TrawlError('bad_request', `Invalid field from: the range may span at most ${MAX_RANGE_DAYS} days`);
  return { from: from.toISOString(), to: to.toISOString(), ...(query.endpoint ? { endpoint: query.endpoint } : {}) };
}

export const usageModule = defineRoutes({
  name: 'usage',
  mounted: (env) => env.config.mode === 'cloud',
  needs: { usage: UsageToken, meter: MeterToken, accounts: AccountsToken },
  routes: ({ usage, meter, accounts }, env) => [
    route({
      method: 'GET',
      path: '/v1/usage',
      query: usageQuery,
      admin: 'reading the usage and billing of the workspace',
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
          rate_limit_per_minute: rateLimitOf(account, env.config.plans),
          from: range.from,
          to: range.to,
          totals: {
            runs: totals.runs,
            credits: totals.credits,
            by_endpoint: totals.byEndpoint,
            by_day: totals.byDay,
            by_day_endpoint: totals.byDayEndpoint,
          },
          ...pageOf('runs', runs.items.map(presentRun), runs.total, page, request),
        };
      },
    }),
  ],
  openapi: () => usageOpenApi,
});
