/**
 * Maps anything thrown while serving a request to the `{error}` envelope and the right status.
 * Internal errors are logged with their stack, stage and plugin, and answered with a generic message.
 */
import type { Logger } from 'pino';
import { TrawlError } from '../core/errors.ts';

/** How long a client told the server is busy (503) should wait before trying again, in seconds. */
export const RETRY_AFTER_SECONDS = 5;

export function errorResponse(error: unknown, logger: Logger, context: { method: string; path: string }): Response {
  if (error instanceof TrawlError && error.status < 500) {
    return Response.json({ error: error.message }, { status: error.status, ...(error.headers ? { headers: error.headers } : {}) });
  }
  if (error instanceof TrawlError && error.code === 'overloaded') {
    return Response.json({ error: error.message }, { status: 503, headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } });
  }
  // Upstream failures and missing configuration are the caller's to read, not internals.
  if (error instanceof TrawlError && (error.code === 'bad_gateway' || error.code === 'gateway_timeout' || error.code === 'unavailable')) {
    const headers: Record<string, string> = error.retryAfterSeconds ? { 'retry-after': String(Math.ceil(error.retryAfterSeconds)) } : {};
    return Response.json({ error: error.message }, { status: error.status, headers });
  }
  logger.error({ err: error, ...context }, 'unexpected error');
  return Response.json({ error: 'Internal server error' }, { status: 500 });
}

export const notFound = (method: string, path: string) =>
  Response.json({ error: `Not found: ${method} ${path}` }, { status: 404 });
