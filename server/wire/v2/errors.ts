/**
 * The /v2 error envelope, as Firecrawl's SDKs read it: `{success: false, error, code, details?}`
 * (the SDK's thrown message is `error`). Statuses are Trawl's, except a scrape that ran out of time,
 * which Firecrawl answers 408 and Trawl's own API 422. Also the job id check of the status, cancel
 * and errors routes.
 */
import { badRequest, type ErrorCode } from '../../../core/errors.ts';
import type { ErrorPresenter } from '../../errors.ts';

const CODES: Readonly<Record<ErrorCode, string>> = {
  bad_request: 'BAD_REQUEST',
  capability_missing: 'BAD_REQUEST',
  unauthorized: 'UNAUTHORIZED',
  payment_required: 'INSUFFICIENT_CREDITS',
  forbidden: 'FORBIDDEN',
  not_found: 'NOT_FOUND',
  conflict: 'CONFLICT',
  payload_too_large: 'PAYLOAD_TOO_LARGE',
  fetch_failed: 'SCRAPE_SITE_ERROR',
  blocked: 'SCRAPE_BLOCKED',
  unsupported_content: 'SCRAPE_UNSUPPORTED_FILE_ERROR',
  unprocessable: 'SCRAPE_FAILED',
  timeout: 'SCRAPE_TIMEOUT',
  rate_limited: 'RATE_LIMIT_EXCEEDED',
  overloaded: 'SERVER_BUSY',
  bad_gateway: 'UPSTREAM_ERROR',
  gateway_timeout: 'UPSTREAM_TIMEOUT',
  unavailable: 'NOT_CONFIGURED',
  config_invalid: 'UNKNOWN_ERROR',
  internal: 'UNKNOWN_ERROR',
};

export const presentV2Error: ErrorPresenter = ({ status, message, code, details, headers }) =>
  Response.json(
    { success: false, error: message, code: CODES[code], ...(details !== undefined ? { details } : {}) },
    { status: code === 'timeout' ? 408 : status, headers },
  );

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Job ids are UUIDs; anything else is Firecrawl's 400 before any lookup. */
export function checkJobId(id: string): string {
  if (!UUID.test(id)) throw badRequest('Invalid job ID format. Job ID must be a valid UUID.');
  return id.toLowerCase();
}
