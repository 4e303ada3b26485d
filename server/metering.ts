/**
 * Runs one route for one authenticated caller, with what the route declares and the mode asks for,
 * in this order: the plan checks of cloud mode (403 `… requires a paid plan` for a paid feature on a
 * free or lapsed workspace, and for any metered call of a lapsed one), the body (`input`: 400 before
 * anything is counted or charged), the workspace's rate limit (429 with Retry-After; `X-RateLimit-*`
 * on every answer) and the charge (`meter`: 402 `Insufficient credits` before any work) in one
 * batched write with the usage row, the handler, and then the row's outcome, with the charge
 * refunded when the handler failed. Unmetered calls are counted first of all. Metered answers carry
 * `X-Credits-Used`, `X-Credits-Remaining` and `X-Usage-Id`. Self-hosted mode with no configured rate
 * limit runs the handler straight away.
 */
import type { Logger } from 'pino';
import type { TrawlConfig } from '../core/config-schema.ts';
import { TrawlError } from '../core/errors.ts';
import { creditHeaders, INSUFFICIENT_CREDITS, rateLimitHeaders, type Meter, type RateDecision, type RateLimiter } from '../core/metering.ts';
import type { Account } from '../core/storage/workspaces.ts';
import { nowIso } from '../core/storage/values.ts';
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

  const refusedByLimit = (decision: RateDecision, headers: Record<string, string>) => {
    Object.assign(headers, rateLimitHeaders(decision));
    if (!decision.allowed) throw new TrawlError('rate_limited', `Rate limit exceeded: ${decision.limit} requests per minute; retry after ${decision.retryAfter} s`);
  };

  /**
   * Admission (rate limit, charge and usage row in one batched write), the handler, then the row
   * finished: written behind the answer when the call succeeded, awaited with the refund when it failed.
   * A call that starts asynchronous work (`requires`) is logged after it returns, under its run id,
   * so that the run's page charges add to the same row.
   */
  async function metered(route: Route, request: RouteRequest, account: Account, limit: number | undefined, headers: Record<string, string>): Promise<Response> {
    const declared = route.meter!;
    const credits = meter!.price(declared.units?.(request.body) ?? {}, account.plan);
    const required = Math.max(credits, meter!.price(declared.requires?.(request.body) ?? {}, account.plan));
    const startedAt = nowIso();
    const started = performance.now();
    const runs = declared.requires !== undefined;
    const url = declared.url?.(request.body);
    const admitted = await meter!.admit({ workspace: account.id, limit, credits, required, ...(runs ? {} : { usage: { endpoint: declared.endpoint, url, startedAt } }) });
    if (admitted.rate) refusedByLimit(admitted.rate, headers);
    Object.assign(headers, creditHeaders(0, admitted.remaining));
    if (!admitted.charged) throw new TrawlError('payment_required', INSUFFICIENT_CREDITS);
    const charge = { workspace: account.id, credits, remaining: admitted.remaining };
    const elapsed = () => performance.now() - started;
    let response: Response;
    try {
      response = toResponse(await route.handle(request));
    } catch (err) {
      // The caller got nothing: the whole charge goes back.
      const error = err instanceof TrawlError && err.status < 500 ? err.message : 'Internal server error';
      if (runs) {
        const recorded = await meter!.record(charge, { endpoint: declared.endpoint, status: 'failed', url: request.usage.url ?? url, error, durationMs: elapsed(), startedAt }, credits);
        Object.assign(headers, creditHeaders(0, recorded.remaining), { 'x-usage-id': recorded.usageId });
      } else {
        const remaining = await meter!.finish(account.id, admitted.usageId!, { status: 'failed', error, durationMs: elapsed() }, credits);
        Object.assign(headers, creditHeaders(0, remaining ?? admitted.remaining + credits), { 'x-usage-id': admitted.usageId! });
      }
      throw err;
    }
    if (runs) {
      const { usage } = request;
      const recorded = await meter!.record(charge, { endpoint: declared.endpoint, status: 'succeeded', url: usage.url ?? url, resultId: usage.resultId, runId: usage.runId, durationMs: elapsed(), startedAt }, 0);
      return withHeaders(response, { ...headers, ...creditHeaders(credits, recorded.remaining), 'x-usage-id': recorded.usageId });
    }
    // Written behind the answer: the charge and the row are already in; only the outcome is added.
    meter!.finish(account.id, admitted.usageId!, { status: 'succeeded', resultId: request.usage.resultId, durationMs: elapsed() }, 0)
      .catch((err) => logger.error({ err, usage: admitted.usageId }, 'could not finish a usage row'));
    return withHeaders(response, { ...headers, ...creditHeaders(credits, admitted.remaining), 'x-usage-id': admitted.usageId! });
  }

  return async (route, input, caller) => {
    const headers: Record<string, string> = {};
    try {
      const limit = limiter ? limitOf(caller) : undefined;
      const account = cloud ? caller.account : null;
      const isMetered = Boolean(account && route.meter && meter);
      // A metered call is counted with its charge, after its body is read; any other call here.
      if (limit !== undefined && !isMetered) refusedByLimit(await limiter!.hit(caller.workspace, limit), headers);
      if (account) checkPlan(route, account);
      if (isMetered) Object.assign(headers, creditHeaders(0, account!.credits));
      const body = route.input ? await readJsonBody(input.request, route.input, maxBody, route.emptyBody) : undefined;
      const request: RouteRequest = { ...input, workspace: caller.workspace, caller, body, usage: {} };
      if (isMetered) return await metered(route, request, account!, limit, headers);
      const response = toResponse(await route.handle(request));
      return limit === undefined ? response : withHeaders(response, headers);
    } catch (err) {
      return withHeaders(errorResponse(err, logger, { method: input.request.method, path: route.path }), headers, true);
    }
  };
}
