/**
 * Events of real crawls and batches reach webhooks: a registered webhook and a crawl's or batch's
 * own `webhook_url` each get `crawl.completed`, `crawl.failed` or `batch.completed`, signed (the
 * registration with its secret, the per-run URL with `webhooks.signingSecret`), with the run's
 * summary as `data`.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { newSigningSecret } from '../../core/features/webhooks/signing.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../servers/webhook-receiver.ts';

let site: FixtureSite;
let trawl: TestServer;
let receiver: WebhookReceiver;
const SERVER_SECRET = newSigningSecret();
const page = (title: string, links: string[]) =>
  `<html><head><title>${title}</title></head><body><p>${title}</p>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;

beforeAll(async () => {
  site = startFixtureSite({ '/': page('Home', ['/a', '/b']), '/a': page('A', ['/', '/b']), '/b': page('B', ['/a']) });
  receiver = startWebhookReceiver();
  trawl = await startTrawlServer({ overrides: { webhooks: { signingSecret: SERVER_SECRET }, jobs: { pollIntervalMs: 50 } } });
  const registered = await trawl.post('/v1/webhooks', {
    url: receiver.url('/registered'),
    events: ['crawl.completed', 'crawl.failed', 'batch.completed'],
  });
  receiver.setSecret('/registered', registered.body.secret);
  for (const path of ['/crawl-url', '/batch-url']) receiver.setSecret(path, SERVER_SECRET);
});
afterAll(async () => {
  await Promise.all([trawl.stop(), site.stop(), receiver.stop()]);
});

test('crawl.completed reaches the registration and the crawl webhook_url, signed, with the crawl summary', async () => {
  const started = await trawl.post('/v1/crawl', { url: site.at('/'), webhook_url: receiver.url('/crawl-url') });
  expect(started.status).toBe(202);
  const [own] = await receiver.waitFor(1, '/crawl-url');
  const [registered] = await receiver.waitFor(1, '/registered');
  for (const delivery of [own!, registered!]) {
    expect(delivery.verified).toBe(true);
    expect(delivery.payload).toEqual({
      type: 'crawl.completed',
      timestamp: expect.any(String),
      data: expect.objectContaining({ id: started.body.id, status: 'completed', url: site.at('/'), total: 3, completed: 3, failed: 0 }),
    });
  }
  expect(own!.headers['webhook-id']).toBe(registered!.headers['webhook-id']);
});

test('crawl.failed when the start page cannot be fetched', async () => {
  const before = receiver.received('/registered').length;
  const started = await trawl.post('/v1/crawl', { url: 'http://127.0.0.1:1/' });
  const got = await receiver.waitFor(before + 1, '/registered');
  const last = got[got.length - 1]!;
  expect(last.verified).toBe(true);
  expect(last.payload.type).toBe('crawl.failed');
  expect(last.payload.data).toMatchObject({ id: started.body.id, status: 'failed', completed: 0 });
  expect(typeof last.payload.data.error).toBe('string');
});

test('batch.completed reaches the registration and the batch webhook_url', async () => {
  const before = receiver.received('/registered').length;
  const started = await trawl.post('/v1/batch', { urls: [site.at('/a'), site.at('/b')], webhook_url: receiver.url('/batch-url') });
  expect(started.status).toBe(202);
  const [own] = await receiver.waitFor(1, '/batch-url');
  const got = await receiver.waitFor(before + 1, '/registered');
  for (const delivery of [own!, got[got.length - 1]!]) {
    expect(delivery.verified).toBe(true);
    expect(delivery.payload.type).toBe('batch.completed');
    expect(delivery.payload.data).toMatchObject({ id: started.body.id, status: 'completed', total: 2, completed: 2, failed: 0 });
  }
});
