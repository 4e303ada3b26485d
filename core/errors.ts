/**
 * The one error type Trawl raises on purpose. Every failure that reaches a user carries an HTTP
 * status, a stable machine code, and — when it happened inside the pipeline — the stage and the
 * plugin that raised it, so logs and API answers say where things went wrong.
 */

export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'payment_required'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'fetch_failed'
  | 'blocked'
  | 'unsupported_content'
  | 'unprocessable'
  | 'capability_missing'
  | 'config_invalid'
  | 'timeout'
  | 'rate_limited'
  | 'overloaded'
  | 'bad_gateway'
  | 'gateway_timeout'
  | 'unavailable'
  | 'internal';

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  bad_request: 400,
  capability_missing: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  fetch_failed: 422,
  /** The target answered with an anti-bot interstitial, a block page or a CAPTCHA wall (details: vendor, kind, statusCode). */
  blocked: 422,
  unsupported_content: 422,
  unprocessable: 422,
  timeout: 422,
  rate_limited: 429,
  config_invalid: 500,
  overloaded: 503,
  /** A service Trawl depends on (a search or language-model provider) failed; the message says how. */
  bad_gateway: 502,
  /** A service Trawl depends on (a language model) did not answer in time. */
  gateway_timeout: 504,
  /** Not configured, or every upstream is rate limited: the message says what to do. */
  unavailable: 503,
  internal: 500,
};

export class TrawlError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  stage?: string;
  pluginId?: string;
  /** When asking again makes sense (an upstream's Retry-After); answered as the `Retry-After` header. */
  retryAfterSeconds?: number;
  /** More response headers the answer carries (the rate-limit headers of a 429, the credit headers of a 402). */
  headers?: Record<string, string>;
  /** Machine-readable particulars (the validation issues of a 400), for wire formats that show them. */
  details?: unknown;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      stage?: string;
      pluginId?: string;
      cause?: unknown;
      retryAfterSeconds?: number;
      headers?: Record<string, string>;
      details?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TrawlError';
    this.code = code;
    this.status = STATUS_BY_CODE[code];
    this.stage = options.stage;
    this.pluginId = options.pluginId;
    this.retryAfterSeconds = options.retryAfterSeconds;
    if (options.headers) this.headers = options.headers;
    if (options.details !== undefined) this.details = options.details;
  }
}

export const badRequest = (message: string) => new TrawlError('bad_request', message);

/** The spec's wording for anything that stops us from getting the page: `Failed to fetch URL: <reason>`. */
export const fetchFailed = (reason: string, cause?: unknown) => new TrawlError('fetch_failed', `Failed to fetch URL: ${reason}`, { cause });

/** What a blocked page's error carries besides its message. */
export interface BlockedDetails {
  vendor: string;
  kind: string;
  /** The status the blocking answer came with. */
  statusCode: number;
  /** With `proxy: "auto"`: each route tried and how it ended. */
  attempts?: string[];
  /** A rate-limit block's Retry-After, in seconds: when the target said to come back. */
  retryAfterSeconds?: number;
}

/** A page that is a block, never content: `Blocked by <vendor> (<kind>)`. */
export const blockedPage = (details: BlockedDetails) =>
  new TrawlError('blocked', `Blocked by ${details.vendor} (${details.kind})`, { details });

export const configInvalid = (message: string) => new TrawlError('config_invalid', message);

/** Wraps anything thrown inside a stage so the caller learns which stage and plugin failed. */
export function asTrawlError(err: unknown, stage?: string, pluginId?: string): TrawlError {
  const wrapped =
    err instanceof TrawlError ? err : new TrawlError('internal', err instanceof Error ? err.message : String(err), { cause: err });
  wrapped.stage ??= stage;
  wrapped.pluginId ??= pluginId;
  return wrapped;
}
