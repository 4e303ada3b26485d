/**
 * A metered call in cloud mode, once its query and body are read (server/route-runner.ts): priced on
 * the caller's plan, admitted and charged before the handler runs (402 `Insufficient credits`,
 * before any work), the charge given back when the handler fails and the part it did not deliver
 * given back after, its usage row written with the outcome (behind the answer when nothing is to
 * be given back), its JSON answer kept as its result (core/features/results/outputs.ts) unless
 * the handler named a result it stored itself. The answer carries `X-Credits-Used`,
 * `X-Credits-Remaining` and `X-Usage-Id`.
 */
import type { Logger } from 'pino';
import { TrawlError } from '../core/errors.ts';
import { creditHeaders, INSUFFICIENT_CREDITS, type Admitted, type Meter, type Units } from '../core/metering.ts';
import type { Metrics } from '../core/metrics.ts';
import type { RunOutputs } from '../core/features/results/outputs.ts';
import type { Account, Plan } from '../core/storage/workspaces.ts';
import { nowIso } from '../core/storage/values.ts';
import type { Caller, Route, RouteMeter, RouteRequest } from './route.ts';
import { toResponse, withHeaders } from './route-response.ts';

export interface MeteredCallDeps {
  meter: Meter;
  logger: Logger;
  outputs?: RunOutputs | null;
  metrics?: Metrics;
  /** The account's rate limit per minute. */
  limitOf(account: Account): number;
  /** What the database said at admission, as answers (the runner's: the same for unmetered calls). */
  checkAdmission(route: Route, caller: Caller, admitted: Admitted, headers: Record<string, string>): void;
}

export type MeteredCall = (route: Route, request: RouteRequest, caller: Caller, headers: Record<string, string>) => Promise<Response>;

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

export function createMeteredCall(deps: MeteredCallDeps): MeteredCall {
  const { meter, logger, outputs, metrics, limitOf, checkAdmission } = deps;
  const charged = (endpoint: string, credits: number) => credits > 0 && metrics?.creditsCharged.inc({ endpoint }, credits);
  const refunded = (endpoint: string, credits: number) => credits > 0 && metrics?.creditsRefunded.inc({ endpoint }, credits);

  /**
   * A call's price on the caller's plan. A unit the plan has no rate for is a paid feature: the
   * refusal names the feature as the route does (or the route), never the cost table's unit.
   */
  function priced(route: Route, units: Units, plan: Plan): number {
    try {
      return meter.price(units, plan);
    } catch (err) {
      if (err instanceof TrawlError && err.code === 'forbidden')
        throw new TrawlError('forbidden', `${route.paid ?? `${route.method} ${route.path}`} requires a paid plan`);
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
    const admitted = await meter.admit({
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
          const recorded = await meter.record(
            charge,
            { endpoint: declared.endpoint, status: 'failed', url: request.usage.url ?? url, error, durationMs: elapsed(), startedAt },
            credits,
          );
          Object.assign(headers, creditHeaders(0, recorded.remaining), { 'x-usage-id': recorded.usageId });
        }
      } else {
        const remaining = await meter.finish(account.id, admitted.usageId!, { status: 'failed', error, durationMs: elapsed() }, credits);
        Object.assign(headers, creditHeaders(0, remaining ?? admitted.remaining + credits), { 'x-usage-id': admitted.usageId! });
      }
      throw err;
    }
    const { usage } = request;
    const { response } = answer;
    if (!usage.resultId && !usage.noCopy && answer.json !== undefined)
      usage.resultId = await keep(declared, request, account.id, answer.json);
    if (runs) {
      const recorded = await meter.record(
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
    const undelivered = Math.min(credits, usage.undelivered ? meter.price(usage.undelivered, account.plan) : 0);
    if (undelivered > 0) {
      refunded(declared.endpoint, undelivered);
      const remaining = await meter.finish(account.id, admitted.usageId!, outcome, undelivered);
      return withHeaders(response, {
        ...headers,
        ...creditHeaders(credits - undelivered, remaining ?? admitted.remaining + undelivered),
        'x-usage-id': admitted.usageId!,
      });
    }
    // Written behind the answer: the charge is taken; the row goes in once, with the outcome.
    meter
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

  return metered;
}
