/**
 * Maps anything thrown while serving a request to the `{error}` envelope and the right status.
 * Internal errors are logged with their stack, stage and plugin, and answered with a generic message.
 */
import type { Logger } from 'pino';
import { TrawlError } from '../core/errors.ts';

export function errorResponse(error: unknown, logger: Logger, context: { method: string; path: string }): Response {
  if (error instanceof TrawlError && error.status < 500) {
    return Response.json({ error: error.message }, { status: error.status });
  }
  logger.error({ err: error, ...context }, 'unexpected error');
  return Response.json({ error: 'Internal server error' }, { status: 500 });
}

export const notFound = (method: string, path: string) =>
  Response.json({ error: `Not found: ${method} ${path}` }, { status: 404 });
