/**
 * Maps anything thrown while serving a request to an answer: the status, the message and the
 * headers, shown as the `{error}` envelope unless the route's wire format has its own (an
 * `ErrorPresenter`, e.g. /v2's `{success: false, error, code}`). Internal errors are logged with
 * their stack, stage and plugin, and answered with a generic message.
 */
import type { Logger } from 'pino';
import { TrawlError, type BlockedDetails, type ErrorCode } from '../core/errors.ts';

/** How long a client told the server is busy (503) should wait before trying again, in seconds. */
export const RETRY_AFTER_SECONDS = 5;

export interface ErrorAnswer {
  status: number;
  message: string;
  /** The error's code; `internal` for anything unexpected. */
  code: ErrorCode;
  details?: unknown;
  headers: Record<string, string>;
}

/** A wire format's error body for an answer. */
export type ErrorPresenter = (answer: ErrorAnswer) => Response;

/** `{error}`; a blocked page also says who blocked it: `{error, code: "blocked", vendor, status_code}`. */
export const presentPlainError: ErrorPresenter = (answer) =>
  Response.json({ error: answer.message, ...blockedFields(answer) }, { status: answer.status, headers: answer.headers });

function blockedFields({ code, details }: ErrorAnswer): Record<string, unknown> {
  if (code !== 'blocked' || !details) return {};
  const { vendor, kind, statusCode, attempts, retryAfterSeconds } = details as BlockedDetails;
  return {
    code,
    vendor,
    kind,
    status_code: statusCode,
    ...(retryAfterSeconds ? { retry_after_seconds: retryAfterSeconds } : {}),
    ...(attempts ? { attempts } : {}),
  };
}

export function errorAnswer(error: unknown, logger: Logger, context: { method: string; path: string }): ErrorAnswer {
  if (error instanceof TrawlError && error.status < 500) {
    return { status: error.status, message: error.message, code: error.code, details: error.details, headers: error.headers ?? {} };
  }
  if (error instanceof TrawlError && error.code === 'overloaded') {
    return { status: 503, message: error.message, code: error.code, headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } };
  }
  // Upstream failures and missing configuration are the caller's to read, not internals.
  if (error instanceof TrawlError && (error.code === 'bad_gateway' || error.code === 'gateway_timeout' || error.code === 'unavailable')) {
    const headers: Record<string, string> = error.retryAfterSeconds ? { 'retry-after': String(Math.ceil(error.retryAfterSeconds)) } : {};
    return { status: error.status, message: error.message, code: error.code, headers };
  }
  logger.error({ err: error, ...context }, 'unexpected error');
  return { status: 500, message: 'Internal server error', code: 'internal', headers: {} };
}

export function errorResponse(
  error: unknown,
  logger: Logger,
  context: { method: string; path: string },
  present: ErrorPresenter = presentPlainError,
): Response {
  return present(errorAnswer(error, logger, context));
}

export const notFound = (method: string, path: string, present: ErrorPresenter = presentPlainError) =>
  present({ status: 404, message: `Not found: ${method} ${path}`, code: 'not_found', headers: {} });
