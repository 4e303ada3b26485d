/**
 * What the HTTP edge records about every request, whichever way it ends (a route's answer, a 401
 * from authentication, a 404): the request id — the caller's `X-Request-Id` when it is a short
 * printable token, else a new one — echoed on the answer and opened as the logging context of the
 * work (core/logger.ts), and the request's count and latency by route template (never the URL).
 */
import type { Metrics } from '../core/metrics.ts';

const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;
/** Methods as labels; anything else a client invents is one `OTHER`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The caller's id when it is 1–128 visible ASCII characters; otherwise a fresh UUID. */
export function requestIdOf(request: Request): string {
  const sent = request.headers.get('x-request-id')?.trim();
  return sent && REQUEST_ID.test(sent) ? sent : crypto.randomUUID();
}

export interface RequestObserver {
  /** At arrival: the id, echoed on whatever answer follows. */
  start(request: Request, headers: Record<string, unknown>): void;
  requestId(request: Request): string | undefined;
  /** An answer built by the error hook, whose status the after-response hook cannot see. */
  failed(request: Request, response: Response): Response;
  /** After the answer: its count and latency under the route template. */
  finish(request: Request, route: string, response: unknown): void;
}

export function createRequestObserver(metrics: Metrics): RequestObserver {
  const seen = new WeakMap<Request, { id: string; started: number; status?: number }>();
  return {
    start(request, headers) {
      const id = requestIdOf(request);
      seen.set(request, { id, started: performance.now() });
      headers['x-request-id'] = id;
    },
    requestId: (request) => seen.get(request)?.id,
    failed(request, response) {
      const entry = seen.get(request);
      if (entry) entry.status = response.status;
      return response;
    },
    finish(request, route, response) {
      const entry = seen.get(request);
      if (!entry) return;
      const status = String(response instanceof Response ? response.status : entry.status ?? 200);
      const labels = { method: METHODS.has(request.method) ? request.method : 'OTHER', route: route || 'unknown', status };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, (performance.now() - entry.started) / 1000);
    },
  };
}
