import { expect, test } from 'bun:test';
import pino from 'pino';
import { TrawlError } from '../core/errors.ts';
import { errorResponse } from './errors.ts';

const logger = pino({ level: 'silent' });

test('user errors keep their status and message', async () => {
  const res = errorResponse(new TrawlError('fetch_failed', 'Failed to fetch URL: connection refused'), logger, {
    method: 'POST',
    path: '/v1/scrape',
  });
  expect(res.status).toBe(422);
  expect(await res.json()).toEqual({ error: 'Failed to fetch URL: connection refused' });
});

test('internal errors answer 500 without a stack trace or internals', async () => {
  const cause = new Error('SQLITE_CORRUPT at /srv/data/trawl.db');
  for (const error of [cause, new TrawlError('internal', cause.message, { cause })]) {
    const res = errorResponse(error, logger, { method: 'POST', path: '/v1/scrape' });
    expect(res.status).toBe(500);
    const body = await res.text();
    expect(JSON.parse(body)).toEqual({ error: 'Internal server error' });
    expect(body).not.toContain('trawl.db');
    expect(body).not.toContain('at ');
  }
});

test('a busy server answers 503 with Retry-After and the message', async () => {
  const res = errorResponse(new TrawlError('overloaded', 'The server is too busy to process the page; retry later'), logger, {
    method: 'POST',
    path: '/v1/scrape',
  });
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('5');
  expect(await res.json()).toEqual({ error: 'The server is too busy to process the page; retry later' });
});

test('an upstream failure answers 502 with its reasons; unavailable answers 503, with Retry-After only when one is known', async () => {
  const context = { method: 'POST', path: '/v1/search' };
  const failed = errorResponse(new TrawlError('bad_gateway', 'Every search provider failed: search.brave: HTTP 500'), logger, context);
  expect(failed.status).toBe(502);
  expect(failed.headers.get('retry-after')).toBeNull();
  expect(await failed.json()).toEqual({ error: 'Every search provider failed: search.brave: HTTP 500' });
  const limited = errorResponse(
    new TrawlError('unavailable', 'Every search provider is rate limited', { retryAfterSeconds: 12.2 }),
    logger,
    context,
  );
  expect(limited.status).toBe(503);
  expect(limited.headers.get('retry-after')).toBe('13');
  const unset = errorResponse(new TrawlError('unavailable', 'No search provider is configured'), logger, context);
  expect(unset.headers.get('retry-after')).toBeNull();
});
