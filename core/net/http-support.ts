/**
 * Small pieces the HTTP client needs that are worth testing and reading on their own: the errors
 * it raises internally, the mapping of socket/DNS/TLS/parser failures to the reasons users see,
 * and media-type handling (what counts as text, what to assume when the header is missing).
 */

/**
 * Raised inside a socket lookup or before connecting; becomes "address … is not allowed", followed
 * by `hint` (what the operator can change about it) when there is one.
 */
export class ForbiddenAddressError extends Error {
  readonly code = 'ETRAWLFORBIDDEN';
  constructor(
    readonly address: string,
    readonly reason: string,
    hint = '',
  ) {
    super(`address ${address} is not allowed (${reason})${hint ? `; ${hint}` : ''}`);
    this.name = 'ForbiddenAddressError';
  }
}

/** The SSRF guard's refusal anywhere in the error's cause chain, or null. */
export function guardRefusal(err: unknown): Error | null {
  for (let e = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof ForbiddenAddressError || (e as { code?: unknown }).code === 'ETRAWLFORBIDDEN') return e;
  }
  return null;
}

/** True when the SSRF guard refused the request: a permanent answer, not a network fault. */
export const isGuardRefusal = (err: unknown): boolean => guardRefusal(err) !== null;

/** Abort reason of the client's own deadline, told apart from an abort by the caller. */
export class RequestTimeout extends Error {
  constructor() {
    super('request deadline reached');
    this.name = 'RequestTimeout';
  }
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|ERR_OSSL_|HOSTNAME_MISMATCH)/;

/** The human reason after "Failed to fetch URL: " for a low-level failure. */
export function describeNetworkError(err: unknown, host: string): string {
  if (err instanceof ForbiddenAddressError) return err.message;
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : String(err);
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
    case 'EAI_FAIL':
    case 'EAI_NODATA':
      return `could not resolve host ${host}`;
    case 'ERR_TRAWL_TRUNCATED':
      return 'connection closed before the response body was complete';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection reset by the server';
    case 'ETIMEDOUT':
      return 'connection timeout';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `host ${host} is unreachable`;
  }
  if (TLS_CODE.test(code) || /\b(TLS|SSL|certificate)\b/i.test(message))
    return `TLS error: ${message}${code && !message.includes(code) ? ` (${code})` : ''}`;
  if (code.startsWith('HPE_') || /parse error|invalid http|malformed/i.test(message)) return `invalid HTTP response: ${message}`;
  return message || 'unknown network error';
}

/** Media types whose bodies are text and get charset-decoded. */
export function isTextual(mediaType: string): boolean {
  if (mediaType.startsWith('text/')) return true;
  if (/\+(xml|json)$/.test(mediaType)) return true;
  return [
    'application/xml',
    'application/xhtml+xml',
    'application/json',
    'application/javascript',
    'application/x-javascript',
    'application/ecmascript',
  ].includes(mediaType);
}

const HTML_START = /^(?:\s|\uFEFF)*<(?:!doctype\s+html|html|head|body|!--)/i;

/**
 * The media type without parameters, lower-cased. Without a Content-Type header a body that
 * plainly starts like HTML is called HTML (servers forget the header more often than they serve
 * something else); anything else is `application/octet-stream` and left to document sniffing.
 */
export function mediaTypeOf(contentType: string | undefined, body: Uint8Array): string {
  const declared = contentType?.split(';')[0]?.trim().toLowerCase();
  if (declared) return declared;
  const head = Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, 512)).toString('latin1');
  return HTML_START.test(head) ? 'text/html' : 'application/octet-stream';
}
