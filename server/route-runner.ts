/**
 * Runs one route for one authenticated caller, with what the route declares and the mode asks for.
 *
 * Cloud mode: every call is admitted (core/metering.ts `admit`) before its handler runs, which
 * checks the key again (401 for a key revoked since it was remembered), the plan as it stands (403
 * `… requires a paid plan` for a paid feature on the free plan; `This workspace's plan has lapsed:
 * …` for a paid feature, a metered call or one starting billable work (`billable`) of a lapsed
 * workspace), counts the call against the workspace's rate limit (429 with Retry-After;
 * `X-RateLimit-*` on every answer) and, for a metered route, takes its price (402 `Insufficient
 * credits`, before any work) — mostly without a database write, from what the process holds
 * (core/features/accounts/purse.ts). A metered call reads its query and body first (400 before
 * anything is counted or charged); the others are counted first. Every route's query string is
 * checked against what it declares (server/query.ts). After the handler the call's usage row is
 * written with its outcome, behind the answer, and the charge goes back when the handler failed;
 * a metered call's JSON answer is kept as its result, so every paid run can be read again (all of
 * the metered call's own steps: server/metered-call.ts).
 *
 * A route for admin keys (`admin`) answers a member key 403 before its body is read, in both modes.
 *
 * Self-hosted mode: a configured rate limit, if any, then the handler.
 */
import type { Logger } from 'pino';
import type { TrawlConfig } from '../core/config-schema.ts';
import { TrawlError } from '../core/errors.ts';
import { creditHeaders, rateLimitHeaders, type Admitted, type Meter, type RateDecision, type RateLimiter } from '../core/metering.ts';
import type { Metrics } from '../core/metrics.ts';
import type { RunOutputs } from '../core/features/results/outputs.ts';
import { rateLimitOf, type Account } from '../core/storage/workspaces.ts';
import { invalidKey, memberRefused, type Authenticator } from './auth.ts';
import { readJsonBody } from './body.ts';
import { checkParams, readQuery } from './query.ts';
import { errorResponse, type ErrorPresenter } from './errors.ts';
import { createMeteredCall } from './metered-call.ts';
import type { Caller, Route, RouteRequest } from './route.ts';
import { toResponse, withHeaders } from './route-response.ts';

export interface RouteRunnerDeps {
  config: Readonly<TrawlConfig>;
  logger: Logger;
  auth: Authenticator;
  /** Cloud mode only. */
  meter: Meter | null;
  /** Self-hosted mode with `rateLimit.perMinute`. */
  limiter: RateLimiter | null;
  /** Cloud mode: keeps metered answers (absent: nothing is kept beyond what handlers store). */
  outputs?: RunOutputs | null;
  metrics?: Metrics;
}

export type RunInput = Pick<RouteRequest, 'request' | 'params' | 'server'>;
export type RouteRunner = ((route: Route, input: RunInput, caller: Caller, present?: ErrorPresenter) => Promise<Response>) & {
  /**
   * A WebSocket upgrade, admitted as one unmetered request of `caller` (server/sockets.ts): counted
   * against the workspace's rate limit, the key checked in the database in cloud mode. Throws the
   * refusal (401, 429); answers the rate-limit headers.
   */
  admitUpgrade(caller: Caller): Promise<Record<string, string>>;
};

function checkRate(decision: RateDecision, headers: Record<string, string>): void {
  Object.assign(headers, rateLimitHeaders(decision));
  if (!decision.allowed)
    throw new TrawlError(
      'rate_limited',
      `Rate limit exceeded: ${decision.limit} requests per minute; retry after ${decision.retryAfter} s`,
    );
}

export function createRouteRunner(deps: RouteRunnerDeps): RouteRunner {
  const { config, logger, auth, meter, limiter, outputs, metrics } = deps;
  const maxBody = config.server.maxBodyBytes;
  const limitOf = (account: Account) => rateLimitOf(account, config.plans);

  /** A route for admin keys refuses a member key (a key's role never changes, so the remembered one holds). */
  function checkRole(route: Route, caller: Caller): void {
    if (route.admin !== undefined && caller.role !== 'admin') throw memberRefused(route.admin);
  }

  /** What the database said at admission, as answers: 401, 403, 429, 402 — in that order. */
  function checkAdmission(
    route: Pick<Route, 'paid' | 'method' | 'path'>,
    caller: Caller,
    admitted: Admitted,
    headers: Record<string, string>,
  ): void {
    if (!admitted.keyValid) {
      auth.forget(caller.keyHash!);
      throw invalidKey();
    }
    if (admitted.refusal === 'paid') throw new TrawlError('forbidden', `${route.paid} requires a paid plan`);
    if (admitted.refusal === 'lapsed')
      throw new TrawlError('forbidden', `This workspace's plan has lapsed: ${route.method} ${route.path} requires a paid plan`);
    if (admitted.rate) checkRate(admitted.rate, headers);
  }

  /** The path's ids (404 when malformed), the declared query and body (400 on either); checked for every route, with or without a body. */
  async function readInput(route: Route, request: Request, params: Record<string, string>): Promise<Pick<RouteRequest, 'query' | 'body'>> {
    const query = readQuery(route, request) as RouteRequest['query'];
    const body = route.input ? await readJsonBody(request, route.input, maxBody, route.emptyBody) : undefined;
    // After the query and body, so a malformed id answers as an unknown one does (a bad body is 400 either way).
    checkParams(route, params);
    return { query, body };
  }

  /** The input of a metered call; a remembered key is read again before a bad query or body is answered 400 (a revoked key stays 401). */
  async function readMeteredInput(
    route: Route,
    request: Request,
    params: Record<string, string>,
    caller: Caller,
  ): Promise<Pick<RouteRequest, 'query' | 'body'>> {
    try {
      return await readInput(route, request, params);
    } catch (err) {
      if (!(await auth.refresh(caller))) throw invalidKey();
      throw err;
    }
  }

  /** An unmetered call counted and checked (cloud mode): the key, the plan for a paid route, the rate limit. */
  async function admitUnmetered(
    route: Pick<Route, 'paid' | 'billable' | 'method' | 'path'>,
    caller: Caller,
    headers: Record<string, string>,
  ): Promise<void> {
    const account = caller.account!;
    const admitted = await meter!.admit({
      workspace: account.id,
      limit: limitOf(account),
      credits: 0,
      required: 0,
      keyHash: caller.keyHash,
      paid: Boolean(route.paid),
      metered: route.billable,
    });
    checkAdmission(route, caller, admitted, headers);
  }

  /** Self-hosted mode: the configured rate limit, if any, for a workspace's call. */
  async function countSelfHosted(caller: Caller, headers: Record<string, string>): Promise<boolean> {
    const limit = limiter && caller.scope === 'workspace' ? config.rateLimit.perMinute : undefined;
    if (limit !== undefined) checkRate(await limiter!.hit(caller.workspace, limit), headers);
    return limit !== undefined;
  }

  const metered = meter ? createMeteredCall({ meter, logger, outputs, metrics, limitOf, checkAdmission }) : null;
  const cloudCaller = (caller: Caller) => Boolean(meter && caller.scope === 'workspace' && caller.account);

  async function cloud(route: Route, input: RunInput, caller: Caller, headers: Record<string, string>): Promise<Response> {
    const account = caller.account!;
    const request: RouteRequest = { ...input, workspace: caller.workspace, caller, body: undefined, query: {}, usage: {} };
    if (route.meter) {
      checkRole(route, caller);
      Object.assign(headers, creditHeaders(0, account.credits));
      Object.assign(request, await readMeteredInput(route, input.request, input.params, caller));
      return metered!(route, request, caller, headers);
    }
    await admitUnmetered(route, caller, headers);
    checkRole(route, caller);
    Object.assign(request, await readInput(route, input.request, input.params));
    return withHeaders(toResponse(await route.handle(request)), headers);
  }

  const run = async (route: Route, input: RunInput, caller: Caller, present?: ErrorPresenter) => {
    const headers: Record<string, string> = {};
    try {
      if (cloudCaller(caller)) return await cloud(route, input, caller, headers);
      const counted = await countSelfHosted(caller, headers);
      checkRole(route, caller);
      const response = toResponse(
        await route.handle({
          ...input,
          workspace: caller.workspace,
          caller,
          ...(await readInput(route, input.request, input.params)),
          usage: {},
        }),
      );
      return counted ? withHeaders(response, headers) : response;
    } catch (err) {
      return withHeaders(errorResponse(err, logger, { method: input.request.method, path: route.path }, present), headers, true);
    }
  };
  return Object.assign(run, {
    async admitUpgrade(caller: Caller) {
      const headers: Record<string, string> = {};
      if (cloudCaller(caller)) await admitUnmetered({ method: 'GET', path: 'WebSocket' }, caller, headers);
      else await countSelfHosted(caller, headers);
      return headers;
    },
  });
}
