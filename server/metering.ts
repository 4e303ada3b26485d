/**
 * Runs one route for one authenticated caller, with what the route declares and the mode asks for,
 * in this order: the workspace's rate limit (429 with Retry-After; `X-RateLimit-*` on every
 * answer), the plan checks of cloud mode (403 `… requires a paid plan` for a paid feature on a free
 * or lapsed workspace, and for any metered call of a lapsed one), the body (`input`: 400 before
 * anything is charged), the charge (`meter`: 402 `Insufficient credits` before any work), the
 * handler, and then the usage row, with the charge refunded when the handler failed. Metered
 * answers carry `X-Credits-Used`, `X-Credits-Remaining` and `X-Usage-Id`. Self-hosted mode with no
 * configured rate limit runs the handler straight away.
 */
import type { Logger } from 'pino';
import type { TrawlConfig } from '../core/config-schema.ts';
import { TrawlError } from '../core/errors.ts';
import { creditHeaders, type Charge, type Meter } from '../core/metering.ts';
import type { Account } from '../core/storage/workspaces.ts';
import { nowIso } from '../core/storage/values.ts';
import { rateLimitHeaders, type RateLimiter } from '../core/features/accounts/rate-limit.ts';
import { readJsonBody } from './body.ts';
import { errorResponse } from './errors.ts';
import type { Caller, Route, RouteRequest, UsageNote } from './route.ts';

export interface RouteRunnerDeps {
  config: Readonly<TrawlConfig>;
  logger: Logger;
  /** Cloud mode only. */
  meter: Meter | null;
  /** Cloud mode, or self-hosted with `rateLimit.perMinute`. */
  limiter: RateLimiter | null;
}

export type RunInput = Pick<RouteRequest, 'request' | 'params' | 'server'>;
export type RouteRunner = (route: Route, input: RunInput, caller: Caller) => Promise<Response>;

const toResponse = (result: unknown): Response => (result instanceof Response ? result : Response.json(result));

/** `under`: headers the response already has win (an error's own credit headers are the latest). */
function withHeaders(response: Response, headers: Record<string, string>, under = false): Response {
  for (const [name, value] of Object.entries(headers)) if (!under || !response.headers.has(name)) response.headers.set(name, value);
  return response;
}

const forbidden = (message: string) => new TrawlError('forbidden', message);

/** The plan checks: paid features need an active paid plan; a lapsed workspace may read but not run billable work. */
function checkPlan(route: Route, account: Account): void {
  if (route.paid && (account.plan === 'free' || account.status === 'lapsed')) throw forbidden(`${route.paid} requires a paid plan`);
  if (route.meter && account.status === 'lapsed') throw forbidden(`This workspace's plan has lapsed: ${route.method} ${route.path} requires a paid plan`);
}

export function createRouteRunner(deps: RouteRunnerDeps): RouteRunner {
  const { config, logger, meter, limiter } = deps;
  const cloud = config.mode === 'cloud';
  const maxBody = config.server.maxBodyBytes;
  const limitOf = (caller: Caller): number | undefined => {
    if (caller.scope !== 'workspace') return undefined;
    if (!caller.account) return config.rateLimit.perMinute;
    return caller.account.rateLimit ?? config.plans[caller.account.plan].rateLimitPerMinute;
  };

  async function metered(route: Route, request: RouteRequest, account: Account, headers: Record<string, string>): Promise<Response> {
    const declared = route.meter!;
    const credits = meter!.price(declared.units?.(request.body) ?? {}, account.plan);
    const required = meter!.price(declared.requires?.(request.body) ?? {}, account.plan);
    const charge: Charge = await meter!.debit(account.id, credits, required);
    const startedAt = nowIso();
    const started = performance.now();
    const outcome = (status: 'succeeded' | 'failed', usage: UsageNote, error?: string) => ({
      endpoint: declared.endpoint, status, url: usage.url ?? declared.url?.(request.body), resultId: usage.resultId, runId: usage.runId,
      error, durationMs: performance.now() - started, startedAt,
    });
    let response: Response;
    try {
      response = toResponse(await route.handle(request));
    } catch (err) {
      const message = err instanceof TrawlError && err.status < 500 ? err.message : 'Internal server error';
      // The caller got nothing: the whole charge goes back.
      const recorded = await meter!.record(charge, outcome('failed', request.usage, message), charge.credits);
      Object.assign(headers, creditHeaders(0, recorded.remaining), { 'x-usage-id': recorded.usageId });
      throw err;
    }
    const recorded = await meter!.record(charge, outcome('succeeded', request.usage), 0);
    return withHeaders(response, { ...headers, ...creditHeaders(recorded.credits, recorded.remaining), 'x-usage-id': recorded.usageId });
  }

  return async (route, input, caller) => {
    const headers: Record<string, string> = {};
    try {
      const limit = limiter ? limitOf(caller) : undefined;
      if (limit !== undefined) {
        const decision = await limiter!.hit(caller.workspace, limit);
        Object.assign(headers, rateLimitHeaders(decision));
        if (!decision.allowed) throw new TrawlError('rate_limited', `Rate limit exceeded: ${limit} requests per minute; retry after ${decision.retryAfter} s`);
      }
      const account = cloud ? caller.account : null;
      if (account) checkPlan(route, account);
      const isMetered = Boolean(account && route.meter && meter);
      if (isMetered) Object.assign(headers, creditHeaders(0, account!.credits));
      const body = route.input ? await readJsonBody(input.request, route.input, maxBody, route.emptyBody) : undefined;
      const request: RouteRequest = { ...input, workspace: caller.workspace, caller, body, usage: {} };
      if (isMetered) return await metered(route, request, account!, headers);
      const response = toResponse(await route.handle(request));
      return limit === undefined ? response : withHeaders(response, headers);
    } catch (err) {
      return withHeaders(errorResponse(err, logger, { method: input.request.method, path: route.path }), headers, true);
    }
  };
}
