/**
 * What the HTTP edge records about every request, whichever way it ends (a route's answer, a 401
 * from authentication, a 404): the request id — the caller's `X-Request-Id` when it is a short
 * printable token, else a new one — echoed on the answer and opened as the logging context of the
 * work (core/logger.ts), the request's count and latency by route template (never the URL), and
 * one access-log line: method, route template, status, milliseconds, request id, workspace.
 */
import type { Logger } from 'pino';
import type { Metrics } from '../core/metrics.ts';
import type { Caller } from './route.ts';

const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;
/** Methods as labels; anything else a client invents is one `OTHER`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Probes a load balancer or Prometheus sends every few seconds: logged at debug, so they do not bury the traffic. */
const PROBES = new Set(['/health', '/metrics']);

/** The caller's id when it is 1–128 visible ASCII characters; otherwise a fresh UUID. */
export function requestIdOf(request: Request): string {
  const sent = request.headers.get('x-request-id')?.trim();
  return sent && REQUEST_ID.test(sent) ? sent : crypto.randomUUID();
}

export interface RequestObserver {
  /** At arrival: the id, echoed on whatever answer follows. */
  start(request: Request, headers: Record<string, unknown>): void;
  requestId(request: Request): string | undefined;
  /** Once authenticated: whose request it is (the access line names the workspace). */
  identify(request: Request, caller: Caller): void;
  /** An answer built by the error hook, whose status the after-response hook cannot see. */
  failed(request: Request, response: Response): Response;
  /** After the answer: its count and latency under the route template, and its access line. */
  finish(request: Request, route: string, response: unknown): void;
}

export function createRequestObserver(metrics: Metrics, logger: Logger): RequestObserver {
  const seen = new WeakMap<Request, { id: string; started: number; status?: number; workspace?: string }>();
  return {
    start(request, headers) {
      const id = requestIdOf(request);
      seen.set(request, { id, started: performance.now() });
      headers['x-request-id'] = id;
    },
    requestId: (request) => seen.get(request)?.id,
    identify(request, caller) {
      const entry = seen.get(request);
      if (entry && caller.scope === 'workspace') entry.workspace = caller.workspace;
    },
    failed(request, response) {
      const entry = seen.get(request);
      if (entry) entry.status = response.status;
      return response;
    },
    finish(request, route, response) {
      const entry = seen.get(request);
      if (!entry) return;
      const status = String(response instanceof Response ? response.status : (entry.status ?? 200));
      const labels = { method: METHODS.has(request.method) ? request.method : 'OTHER', route: route || 'unknown', status };
      const seconds = (performance.now() - entry.started) / 1000;
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, seconds);
      const line = {
        ...labels,
        status: Number(status),
        ms: Math.round(seconds * 10_000) / 10,
        request_id: entry.id,
        workspace: entry.workspace ?? null,
      };
      if (PROBES.has(labels.route)) logger.debug(line, 'request');
      else logger.info(line, 'request');
    },
  };
}
