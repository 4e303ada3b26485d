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
 * checked against what it declares (server/query.ts). After the handler the call's
 * usage row is written with its outcome, behind the answer, and the charge
 * goes back when the handler failed. Metered answers carry `X-Credits-Used`, `X-Credits-Remaining`
 * and `X-Usage-Id`. A metered call's JSON answer is kept as its result (core/features/results/outputs.ts)
 * unless the handler named a result it stored itself, so every paid run can be read again.
 *
 * A route for admin keys (`admin`) answers a member key 403 before its body is read, in both modes.
 *
 * Self-hosted mode: a configured rate limit, if any, then the handler.
 */
import type { Logger } from 'pino';
import type { TrawlConfig } from '../core/config-schema.ts';
import { TrawlError } from '../core/errors.ts';
import {
  creditHeaders,
  INSUFFICIENT_CREDITS,
  rateLimitHeaders,
  type Admitted,
  type Meter,
  type RateDecision,
  type RateLimiter,
  type Units,
} from '../core/metering.ts';
import type { Metrics } from '../core/metrics.ts';
import type { RunOutputs } from '../core/features/results/outputs.ts';
import type { Account, Plan } from '../core/storage/workspaces.ts';
import { nowIso } from '../core/storage/values.ts';
import { invalidKey, memberRefused, type Authenticator } from './auth.ts';
import { readJsonBody } from './body.ts';
import { checkParams, readQuery } from './query.ts';
import { errorResponse, type ErrorPresenter } from './errors.ts';
import type { Caller, Route, RouteMeter, RouteRequest } from './route.ts';

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

const toResponse = (result: unknown): Response => (result instanceof Response ? result : Response.json(result));

const JSON_TYPE = 'application/json;charset=utf-8';

/** A handler's result as a response, with its JSON text when it is a successful JSON answer (what a metered call keeps) and `keeping`. */
async function answerOf(result: unknown, keeping: boolean): Promise<{ response: Response; json?: string }> {
  if (!keeping) return { response: toResponse(result) };
  if (!(result instanceof Response)) {
    const json = JSON.stringify(result);
    return { response: new Response(json, { headers: { 'content-type': JSON_TYPE } }), json };
  }
  const json = result.ok && result.headers.get('content-type')?.startsWith('application/json') ? await result.clone().text() : undefined;
  return { response: result, json };
}

/** `under`: headers the response already has win (an error's own credit headers are the latest). */
function withHeaders(response: Response, headers: Record<string, string>, under = false): Response {
  for (const [name, value] of Object.entries(headers)) if (!under || !response.headers.has(name)) response.headers.set(name, value);
  return response;
}

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
  const charged = (endpoint: string, credits: number) => credits > 0 && metrics?.creditsCharged.inc({ endpoint }, credits);
  const refunded = (endpoint: string, credits: number) => credits > 0 && metrics?.creditsRefunded.inc({ endpoint }, credits);
  const maxBody = config.server.maxBodyBytes;
  const limitOf = (account: Account) => account.rateLimit ?? config.plans[account.plan].rateLimitPerMinute;

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

  /**
   * A call's price on the caller's plan. A unit the plan has no rate for is a paid feature: the
   * refusal names the feature as the route does (or the route), never the cost table's unit.
   */
  function priced(route: Route, units: Units, plan: Plan): number {
    try {
      return meter!.price(units, plan);
    } catch (err) {
      if (err instanceof TrawlError && err.code === 'forbidden')
        throw new TrawlError('forbidden', `${route.paid ?? `${route.method} ${route.path}`} requires a paid plan`);
      throw err;
    }
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

  async function metered(route: Route, request: RouteRequest, caller: Caller, headers: Record<string, string>): Promise<Response> {
    const account = caller.account!;
    const declared = route.meter!;
    const credits = priced(route, declared.units?.(request.body) ?? {}, account.plan);
    const required = Math.max(credits, priced(route, declared.requires?.(request.body) ?? {}, account.plan));
    const startedAt = nowIso();
    const started = performance.now();
    // A call that starts asynchronous work is logged after it returns, under its run id, so that
    // the run's page charges add to the same row; any other call's row goes in with its charge.
    const runs = declared.requires !== undefined;
    const url = declared.url?.(request.body);
    const admitted = await meter!.admit({
      workspace: account.id,
      limit: limitOf(account),
      credits,
      required,
      keyHash: caller.keyHash,
      metered: true,
      paid: Boolean(route.paid),
      ...(runs ? {} : { usage: { endpoint: declared.endpoint, url, startedAt } }),
    });
    // A key revoked meanwhile learns nothing of the workspace; anyone else gets the balance as it is now.
    if (admitted.keyValid) Object.assign(headers, creditHeaders(0, admitted.remaining));
    else for (const name of Object.keys(creditHeaders(0, 0))) delete headers[name];
    checkAdmission(route, caller, admitted, headers);
    if (!admitted.charged) throw new TrawlError('payment_required', INSUFFICIENT_CREDITS);
    charged(declared.endpoint, credits);
    const charge = { workspace: account.id, credits, remaining: admitted.remaining };
    const elapsed = () => performance.now() - started;
    let answer: Awaited<ReturnType<typeof answerOf>>;
    try {
      answer = await answerOf(await route.handle(request), Boolean(outputs));
    } catch (err) {
      // The caller got nothing: the whole charge goes back.
      refunded(declared.endpoint, credits);
      const error = err instanceof TrawlError && err.status < 500 ? err.message : 'Internal server error';
      if (runs) {
        // A run that never started because the request was wrong (unknown id, bad field) is no run to
        // log, unless a charge taken up front has to be given back.
        const rejected = err instanceof TrawlError && err.status < 500 && err.status !== 422;
        if (!rejected || credits > 0) {
          const recorded = await meter!.record(
            charge,
            { endpoint: declared.endpoint, status: 'failed', url: request.usage.url ?? url, error, durationMs: elapsed(), startedAt },
            credits,
          );
          Object.assign(headers, creditHeaders(0, recorded.remaining), { 'x-usage-id': recorded.usageId });
        }
      } else {
        const remaining = await meter!.finish(account.id, admitted.usageId!, { status: 'failed', error, durationMs: elapsed() }, credits);
        Object.assign(headers, creditHeaders(0, remaining ?? admitted.remaining + credits), { 'x-usage-id': admitted.usageId! });
      }
      throw err;
    }
    const { usage } = request;
    const { response } = answer;
    if (!usage.resultId && !usage.noCopy && answer.json !== undefined)
      usage.resultId = await keep(declared, request, account.id, answer.json);
    if (runs) {
      const recorded = await meter!.record(
        charge,
        {
          endpoint: declared.endpoint,
          status: 'succeeded',
          url: usage.url ?? url,
          resultId: usage.resultId,
          runId: usage.runId,
          durationMs: elapsed(),
          startedAt,
        },
        0,
      );
      return withHeaders(response, { ...headers, ...creditHeaders(credits, recorded.remaining), 'x-usage-id': recorded.usageId });
    }
    const outcome = { status: 'succeeded' as const, resultId: usage.resultId, durationMs: elapsed() };
    // What the call did not deliver goes back now, so the headers are true.
    const undelivered = Math.min(credits, usage.undelivered ? meter!.price(usage.undelivered, account.plan) : 0);
    if (undelivered > 0) {
      refunded(declared.endpoint, undelivered);
      const remaining = await meter!.finish(account.id, admitted.usageId!, outcome, undelivered);
      return withHeaders(response, {
        ...headers,
        ...creditHeaders(credits - undelivered, remaining ?? admitted.remaining + undelivered),
        'x-usage-id': admitted.usageId!,
      });
    }
    // Written behind the answer: the charge is taken; the row goes in once, with the outcome.
    meter!
      .finish(account.id, admitted.usageId!, outcome, 0)
      .catch((err) => logger.error({ err, usage: admitted.usageId }, 'could not finish a usage row'));
    return withHeaders(response, { ...headers, ...creditHeaders(credits, admitted.remaining), 'x-usage-id': admitted.usageId! });
  }

  /** Stores a metered answer as the call's result; a storage failure costs the stored copy, never the answer. */
  async function keep(declared: RouteMeter<unknown>, request: RouteRequest, workspace: string, json: string): Promise<string | undefined> {
    if (!outputs) return undefined;
    const key = declared.key?.(request.body) ?? request.usage.url ?? declared.url?.(request.body) ?? '';
    try {
      return (await outputs.keep(workspace, declared.endpoint, key, json)).id ?? undefined;
    } catch (err) {
      logger.error({ err, endpoint: declared.endpoint }, 'could not store a metered answer');
      return undefined;
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

  const cloudCaller = (caller: Caller) => Boolean(meter && caller.scope === 'workspace' && caller.account);

  async function cloud(route: Route, input: RunInput, caller: Caller, headers: Record<string, string>): Promise<Response> {
    const account = caller.account!;
    const request: RouteRequest = { ...input, workspace: caller.workspace, caller, body: undefined, query: {}, usage: {} };
    if (route.meter) {
      checkRole(route, caller);
      Object.assign(headers, creditHeaders(0, account.credits));
      Object.assign(request, await readMeteredInput(route, input.request, input.params, caller));
      return metered(route, request, caller, headers);
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
