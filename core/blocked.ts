/**
 * Asks the enabled `blocker` plugins whether a fetched response is a block rather than the page:
 * builds their input once (status, headers, the start of the body as text, its title) and returns
 * the first verdict in plugin order. Runs on the server thread after every fetch, so it reads at
 * most `BLOCKER_BODY_CHARS` of a body and never parses it.
 */
import type { FetchedResponse } from './net/response.ts';
import { BLOCKER_BODY_CHARS, type BlockerHandler, type BlockerInput, type BlockVerdict } from './kinds/blocker.ts';
import { isTextual } from './net/http-support.ts';
import { waitAskedFor } from './net/provider-http.ts';
import { blockedPage, type TrawlError } from './errors.ts';
import type { Metrics } from './metrics.ts';

const TITLE = /<title\b[^>]*>([^<]{0,1000})<\/title/i;

export function blockerInput(response: FetchedResponse): BlockerInput {
  const textual = isTextual(response.mediaType) || response.mediaType === 'application/octet-stream';
  // Markers are ASCII: decoding bytes one to one keeps them whatever the page's charset (and
  // Buffer's latin1 is several times faster than a TextDecoder here).
  const { body: bytes } = response;
  const body = textual
    ? Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, BLOCKER_BODY_CHARS)).toString('latin1')
    : '';
  const title = TITLE.exec(body)?.[1]?.replace(/\s+/g, ' ').trim() ?? '';
  // A browser joins several Set-Cookie values with newlines, the HTTP client with ", ": one form for recognisers.
  const cookies = response.headers['set-cookie'];
  const headers = cookies?.includes('\n') ? { ...response.headers, 'set-cookie': cookies.split('\n').join(', ') } : response.headers;
  return { status: response.status, headers, url: response.finalUrl, body, title };
}

/** The error a blocked response is: who blocked it and how, its status, and when to come back if it said. */
export function blockedError(verdict: BlockVerdict, response: FetchedResponse | null, attempts?: readonly string[]): TrawlError {
  const wait = response ? waitAskedFor(response) : undefined;
  const error = blockedPage({
    vendor: verdict.vendor,
    kind: verdict.kind,
    statusCode: response?.status ?? 0,
    ...(attempts ? { attempts: [...attempts] } : {}),
    ...(wait ? { retryAfterSeconds: wait } : {}),
  });
  if (wait) error.headers = { 'retry-after': String(wait) };
  error.stage = 'fetch';
  return error;
}

/** The first verdict in plugin order, counted per vendor in `metrics` (every blocked answer counts). */
export function recogniseBlock(
  blockers: ReadonlyArray<{ handler: BlockerHandler }>,
  response: FetchedResponse | null,
  metrics?: Metrics,
): BlockVerdict | null {
  if (!response || blockers.length === 0) return null;
  const input = blockerInput(response);
  for (const { handler } of blockers) {
    const verdict = handler.recognise(input);
    if (!verdict) continue;
    metrics?.blockedPages.inc({ vendor: verdict.vendor });
    return verdict;
  }
  return null;
}
