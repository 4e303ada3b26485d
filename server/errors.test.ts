import { expect, test } from 'bun:test';
import pino from 'pino';
import { TrawlError } from '../core/errors.ts';
import { errorResponse } from './errors.ts';

const logger = pino({ level: 'silent' });

test('user errors keep their status and message', async () => {
  const res = errorResponse(new TrawlError('fetch_failed', 'Failed to fetch URL: connection refused'), logger, { method: 'POST', path: '/v1/scrape' });
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
  const res = errorResponse(new TrawlError('overloaded', 'The server is too busy to process the page; retry later'), logger, { method: 'POST', path: '/v1/scrape' });
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('5');
  expect(await res.json()).toEqual({ error: 'The server is too busy to process the page; retry later' });
});
