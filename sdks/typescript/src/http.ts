/**
 * The transport under every SDK call: base URL and key (or TRAWL_API_URL / TRAWL_API_KEY), a
 * timeout per request, retries with exponential backoff on 429 (honouring `Retry-After`) for every
 * call — a refused request did no work — and on 5xx and network failures for idempotent ones only,
 * and errors mapped to typed classes carrying the status and the body's `error`.
 */
import { anySignal } from './signals.js';

export const SDK_VERSION = '0.1.0';

export interface ClientOptions {
  /** Default: TRAWL_API_URL, else http://127.0.0.1:3000. */
  baseUrl?: string;
  /** Default: TRAWL_API_KEY; none for a self-hosted server without a key. */
  apiKey?: string;
  /** Per request, in ms. Default 60 000. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number;
  /** First backoff step, doubled per retry. Default 500 ms. */
  backoffMs?: number;
  fetch?: typeof fetch;
}

export class TrawlError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown = null,
    readonly headers: Headers = new Headers(),
  ) {
    super(message);
    this.name = new.target.name;
  }
}
export class BadRequestError extends TrawlError {}
export class AuthenticationError extends TrawlError {}
export class InsufficientCreditsError extends TrawlError {}
export class PermissionDeniedError extends TrawlError {}
export class NotFoundError extends TrawlError {}
export class ConflictError extends TrawlError {}
export class UnprocessableError extends TrawlError {}
export class RateLimitError extends TrawlError {
  /** Seconds the server asked to wait, when it said. */
  get retryAfter(): number | null {
    return retryAfterSeconds(this.headers.get('retry-after'));
  }
}
export class ServerError extends TrawlError {}
/** A waiter ran out of time before the work ended. */
export class WaitTimeoutError extends Error {}

const ERROR_CLASSES: Record<number, typeof TrawlError> = {
  400: BadRequestError,
  401: AuthenticationError,
  402: InsufficientCreditsError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableError,
  429: RateLimitError,
};

export function errorFor(status: number, body: unknown, headers: Headers): TrawlError {
  const message = typeof (body as any)?.error === 'string' ? (body as any).error : `HTTP ${status}`;
  const Class = ERROR_CLASSES[status] ?? (status >= 500 ? ServerError : TrawlError);
  return new Class(status, message, body, headers);
}

function retryAfterSeconds(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, (at - Date.now()) / 1000);
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
const env = (name: string) => (typeof process !== 'undefined' ? process.env?.[name] : undefined);

export interface RequestSpec {
  method: string;
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Return the raw response (streams) instead of parsed JSON. */
  raw?: boolean;
  signal?: AbortSignal;
}

export class Transport {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly backoffMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(options: ClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? env('TRAWL_API_URL') ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
    this.apiKey = options.apiKey ?? env('TRAWL_API_KEY') ?? undefined;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxRetries = options.maxRetries ?? 3;
    this.backoffMs = options.backoffMs ?? 500;
    this.fetchImpl = options.fetch ?? fetch;
  }

  url(path: string, query: RequestSpec['query'] = {}): string {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
    return url.toString();
  }

  async request<T>(spec: RequestSpec): Promise<T> {
    const headers: Record<string, string> = {
      'user-agent': `trawl-sdk-typescript/${SDK_VERSION}`,
      accept: 'application/json',
      ...spec.headers,
    };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(this.timeoutMs);
      let response: Response;
      try {
        response = await this.fetchImpl(this.url(spec.path, spec.query), {
          method: spec.method,
          headers,
          body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
          signal: spec.signal ? anySignal([spec.signal, timeout]) : timeout,
        });
      } catch (err) {
        if (spec.signal?.aborted || attempt >= this.maxRetries || !IDEMPOTENT.has(spec.method)) throw err;
        await pause(this.backoff(attempt, null));
        continue;
      }
      if (response.ok) return (spec.raw ? response : await parse(response)) as T;
      const body = await parse(response);
      const retriable = response.status === 429 || (response.status >= 500 && IDEMPOTENT.has(spec.method));
      if (!retriable || attempt >= this.maxRetries) throw errorFor(response.status, body, response.headers);
      await pause(this.backoff(attempt, retryAfterSeconds(response.headers.get('retry-after'))));
    }
  }

  private backoff(attempt: number, retryAfter: number | null): number {
    if (retryAfter !== null) return retryAfter * 1000;
    return this.backoffMs * 2 ** attempt * (0.75 + Math.random() / 2);
  }
}

async function parse(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const sleep = pause;
