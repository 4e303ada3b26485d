/**
 * The webhook registry over HTTP — create (secret shown once), list, get, update, delete, the
 * delivery log, validation, limits, 404 for unknown and other-workspace ids — and deliveries end
 * to end through the real job queue to a receiver that verifies Standard Webhooks signatures:
 * retries after a 500, a 410 that disables the endpoint.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Tokens } from '../../core/tokens.ts';
import { WebhookStoreToken } from '../../core/features/webhooks/store.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../servers/webhook-receiver.ts';

let trawl: TestServer;
let keyed: TestServer;
let receiver: WebhookReceiver;
const KEY = 'trawl_test_key_webhooks_0123';

const send = async (method: string, path: string, body?: unknown, server: TestServer = trawl) => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

beforeAll(async () => {
  receiver = startWebhookReceiver();
  trawl = await startTrawlServer({ overrides: { webhooks: { retryBaseMs: 100, maxPerWorkspace: 6 }, jobs: { pollIntervalMs: 50 } } });
  keyed = await startTrawlServer({ overrides: { apiKey: KEY } });
});
afterAll(async () => {
  await Promise.all([trawl.stop(), keyed.stop(), receiver.stop()]);
});

const create = async (path: string, events = ['crawl.completed']) => {
  const res = await trawl.post('/v1/webhooks', { url: receiver.url(path), events });
  expect(res.status).toBe(201);
  receiver.setSecret(path, res.body.secret);
  return res.body as { id: string; secret: string };
};
const emit = (type: string, data: Record<string, unknown> = {}) =>
  trawl.trawl.container.resolve(Tokens.Events).emit({ type, workspace: 'default', data });
const deleteAll = async () => {
  for (const w of (await trawl.get('/v1/webhooks?per_page=100')).body.webhooks) await send('DELETE', `/v1/webhooks/${w.id}`);
};

describe('registry', () => {
  test('create answers 201 with the secret; no read shows it again', async () => {
    const res = await trawl.post('/v1/webhooks', { url: 'https://hooks.example/a', events: ['crawl.completed', 'batch.completed'] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      url: 'https://hooks.example/a',
      events: ['crawl.completed', 'batch.completed'],
      active: true,
      disabled_reason: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_/),
    });
    const { secret, ...record } = res.body;
    expect((await trawl.get(`/v1/webhooks/${record.id}`)).body).toEqual(record);
    expect(JSON.stringify((await trawl.get('/v1/webhooks')).body)).not.toContain(secret);
    await send('DELETE', `/v1/webhooks/${record.id}`);
  });

  test('update changes url, events and active; delete removes it', async () => {
    const { id } = (await trawl.post('/v1/webhooks', { url: 'https://hooks.example/b', events: ['crawl.completed'] })).body;
    const patched = await send('PATCH', `/v1/webhooks/${id}`, { url: 'http://hooks.example/c', events: ['crawl.failed'] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id, url: 'http://hooks.example/c', events: ['crawl.failed'], active: true });
    expect((await send('PATCH', `/v1/webhooks/${id}`, { active: false })).body).toMatchObject({
      active: false,
      disabled_reason: 'disabled by request',
    });
    expect(await send('DELETE', `/v1/webhooks/${id}`)).toEqual({ status: 200, body: { success: true } });
    expect((await trawl.get(`/v1/webhooks/${id}`)).status).toBe(404);
    expect((await send('DELETE', `/v1/webhooks/${id}`)).status).toBe(404);
  });

  test('the list is newest first and paginated, with next only while more exist', async () => {
    await deleteAll();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await trawl.post('/v1/webhooks', { url: `https://hooks.example/${i}`, events: ['batch.completed'] })).body.id);
    const first = await trawl.get('/v1/webhooks?per_page=2');
    expect(first.body).toMatchObject({ page: 1, per_page: 2, total: 3, next: '/v1/webhooks?limit=2&offset=2' });
    expect(first.body.webhooks.map((w: { id: string }) => w.id)).toEqual([ids[2], ids[1]]);
    const second = await trawl.get(first.body.next);
    expect(second.body.webhooks.map((w: { id: string }) => w.id)).toEqual([ids[0]]);
    expect(second.body.next).toBeUndefined();
    await deleteAll();
  });

  test(`at most webhooks.maxPerWorkspace registrations: then 409`, async () => {
    await deleteAll();
    for (let i = 0; i < 6; i++)
      expect((await trawl.post('/v1/webhooks', { url: `https://hooks.example/${i}`, events: ['crawl.failed'] })).status).toBe(201);
    const res = await trawl.post('/v1/webhooks', { url: 'https://hooks.example/7', events: ['crawl.failed'] });
    expect(res).toMatchObject({ status: 409, body: { error: 'Webhook limit reached: at most 6 per workspace' } });
    await deleteAll();
  });

  test('unknown ids and ids of another workspace are 404 on every operation', async () => {
    const store = trawl.trawl.container.resolve(WebhookStoreToken);
    const foreign = (await store.create('other-workspace', { url: 'https://hooks.example/x', events: ['crawl.completed'] })).webhook.id;
    for (const id of ['no-such-id', foreign]) {
      for (const [method, path, body] of [
        ['GET', `/v1/webhooks/${id}`],
        ['PATCH', `/v1/webhooks/${id}`, { active: false }],
        ['DELETE', `/v1/webhooks/${id}`],
        ['GET', `/v1/webhooks/${id}/deliveries`],
      ] as const) {
        expect(await send(method, path, body)).toEqual({ status: 404, body: { error: 'Webhook not found' } });
      }
    }
    expect((await store.get('other-workspace', foreign))?.active).toBe(true);
  });

  test('a missing or wrong API key is 401 on every webhook route', async () => {
    for (const res of [
      await keyed.post('/v1/webhooks', { url: 'https://h.example/', events: ['crawl.completed'] }),
      await keyed.get('/v1/webhooks'),
      await keyed.get('/v1/webhooks/x/deliveries'),
    ]) {
      expect(res).toMatchObject({ status: 401, body: { error: 'Invalid or missing API key' } });
    }
    expect((await keyed.get('/v1/webhooks', { authorization: `Bearer ${KEY}` })).status).toBe(200);
  });

  const invalid: Array<[string, string, string, unknown, string]> = [
    ['missing url', 'POST', '/v1/webhooks', { events: ['crawl.completed'] }, 'Missing required field: url'],
    ['missing events', 'POST', '/v1/webhooks', { url: 'https://h.example/' }, 'Missing required field: events'],
    [
      'a non-http url',
      'POST',
      '/v1/webhooks',
      { url: 'ftp://h.example/', events: ['crawl.completed'] },
      'Invalid field url: must be an absolute http(s) URL',
    ],
    [
      'a relative url',
      'POST',
      '/v1/webhooks',
      { url: '/hook', events: ['crawl.completed'] },
      'Invalid field url: must be an absolute http(s) URL',
    ],
    [
      'a url with a tab',
      'POST',
      '/v1/webhooks',
      { url: 'https://h.example/a\tb', events: ['crawl.completed'] },
      'Invalid field url: must not contain control characters',
    ],
    [
      'a url with a newline',
      'POST',
      '/v1/webhooks',
      { url: 'https://h.example/\n', events: ['crawl.completed'] },
      'Invalid field url: must not contain control characters',
    ],
    [
      'a bare word',
      'POST',
      '/v1/webhooks',
      { url: 'x', events: ['crawl.completed'] },
      'Invalid field url: must be an absolute http(s) URL',
    ],
    [
      'a patch to a url with a newline',
      'PATCH',
      '/v1/webhooks/00000000-0000-4000-8000-000000000000',
      { url: 'https://h.example/\r\nx' },
      'Invalid field url: must not contain control characters',
    ],
    ['an unknown event', 'POST', '/v1/webhooks', { url: 'https://h.example/', events: ['crawl.started'] }, 'Invalid field events[0]:'],
    ['no events', 'POST', '/v1/webhooks', { url: 'https://h.example/', events: [] }, 'Invalid field events: must list at least one event'],
    [
      'an unknown field',
      'POST',
      '/v1/webhooks',
      { url: 'https://h.example/', events: ['crawl.completed'], secret: 'x' },
      'Unknown field: secret',
    ],
    ['invalid JSON', 'POST', '/v1/webhooks', '{"url":', 'Request body is not valid JSON'],
    ['an empty patch', 'PATCH', '/v1/webhooks/00000000-0000-4000-8000-000000000000', {}, 'Request body must set url, events or active'],
    ['a bad active', 'PATCH', '/v1/webhooks/00000000-0000-4000-8000-000000000000', { active: 'no' }, 'Invalid field active:'],
    ['a bad page', 'GET', '/v1/webhooks?page=0', undefined, 'Invalid field page:'],
    ['a bad per_page', 'GET', '/v1/webhooks?per_page=1000', undefined, 'Invalid field per_page:'],
    ['a non-numeric page', 'GET', '/v1/webhooks?page=abc', undefined, 'Invalid field page:'],
  ];
  for (const [name, method, path, body, message] of invalid) {
    test(`400 for ${name}`, async () => {
      const res = await send(method, path, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toStartWith(message);
    });
  }
});

describe('the SSRF guard at registration', () => {
  test('a receiver on a forbidden address is refused when registered or moved there, by name or by address', async () => {
    const guarded = await startTrawlServer({
      overrides: { fetch: { allowPrivateNetwork: false, resolve: { 'inside.example': '10.1.2.3' } } },
    });
    try {
      const refused = [
        ['http://127.0.0.1:9/hook', 'Invalid field url: address 127.0.0.1 is not allowed (loopback address)'],
        ['http://localhost/hook', 'Invalid field url: host localhost is not allowed (loopback host name)'],
        ['https://inside.example/hook', 'Invalid field url: address 10.1.2.3 is not allowed (private network)'],
        ['http://169.254.169.254/latest', 'Invalid field url: address 169.254.169.254 is not allowed'],
      ];
      for (const [url, message] of refused) {
        const res = await guarded.post('/v1/webhooks', { url, events: ['crawl.completed'] });
        expect([res.status, res.body.error]).toEqual([400, expect.stringContaining(message!)]);
      }
      expect((await guarded.get('/v1/webhooks')).body.total).toBe(0);
      const made = await guarded.post('/v1/webhooks', { url: 'https://93.184.215.14/hook', events: ['crawl.completed'] });
      expect(made.status).toBe(201);
      const moved = await send('PATCH', `/v1/webhooks/${made.body.id}`, { url: 'http://127.0.0.1/x' }, guarded);
      expect([moved.status, moved.body.error]).toEqual([400, 'Invalid field url: address 127.0.0.1 is not allowed (loopback address)']);
    } finally {
      await guarded.stop();
    }
  });
});

describe('deliveries through the job queue', () => {
  test('a subscribed event arrives signed, once; other events do not', async () => {
    const hook = await create('/e2e-ok', ['batch.completed']);
    await emit('crawl.completed', { id: 'nope' });
    await emit('batch.completed', { id: 'batch-1', status: 'completed', total: 2, completed: 2, failed: 0 });
    const [got] = await receiver.waitFor(1, '/e2e-ok');
    expect(got?.verified).toBe(true);
    expect(got?.payload).toMatchObject({ type: 'batch.completed', data: { id: 'batch-1', total: 2 } });
    const log = await trawl.get(`/v1/webhooks/${hook.id}/deliveries`);
    expect(log.body).toMatchObject({ page: 1, per_page: 20, total: 1 });
    expect(log.body.deliveries[0]).toEqual({
      id: expect.any(String),
      message_id: got!.headers['webhook-id'],
      event: 'batch.completed',
      url: receiver.url('/e2e-ok'),
      attempt: 1,
      outcome: 'delivered',
      status_code: 200,
      error: null,
      duration_ms: expect.any(Number),
      next_attempt_at: null,
      created_at: expect.any(String),
    });
    expect(receiver.received('/e2e-ok')).toHaveLength(1);
    await send('DELETE', `/v1/webhooks/${hook.id}`);
  });

  test('a 500 is retried with backoff until the receiver accepts it, and the log shows each attempt', async () => {
    const hook = await create('/e2e-flaky');
    receiver.script('/e2e-flaky', 500, 500);
    await emit('crawl.completed', { id: 'crawl-9' });
    const got = await receiver.waitFor(3, '/e2e-flaky');
    expect(got.map((d) => [d.answered, d.verified])).toEqual([
      [500, true],
      [500, true],
      [200, true],
    ]);
    expect(new Set(got.map((d) => d.headers['webhook-id'])).size).toBe(1);
    let log: any;
    for (let i = 0; i < 100 && (log?.total ?? 0) < 3; i++) {
      log = (await trawl.get(`/v1/webhooks/${hook.id}/deliveries?per_page=2`)).body;
      if (log.total < 3) await Bun.sleep(20);
    }
    expect(log.deliveries.map((d: any) => [d.attempt, d.outcome])).toEqual([
      [3, 'delivered'],
      [2, 'retrying'],
    ]);
    expect(log.next).toBe(`/v1/webhooks/${hook.id}/deliveries?limit=2&offset=2`);
    const older = (await trawl.get(log.next)).body.deliveries[0];
    expect(older).toMatchObject({ attempt: 1, outcome: 'retrying', status_code: 500, error: 'receiver answered HTTP 500' });
    expect(Number.isNaN(Date.parse(older.next_attempt_at))).toBe(false);
    await send('DELETE', `/v1/webhooks/${hook.id}`);
  });

  test('410 Gone disables the webhook; it receives nothing more until re-activated', async () => {
    const hook = await create('/e2e-gone');
    receiver.script('/e2e-gone', 410);
    await emit('crawl.completed');
    await receiver.waitFor(1, '/e2e-gone');
    let record: any;
    for (let i = 0; i < 100 && record?.active !== false; i++) {
      record = (await trawl.get(`/v1/webhooks/${hook.id}`)).body;
      if (record.active !== false) await Bun.sleep(20);
    }
    expect(record).toMatchObject({ active: false, disabled_reason: 'receiver answered HTTP 410 Gone' });
    await emit('crawl.completed');
    expect((await send('PATCH', `/v1/webhooks/${hook.id}`, { active: true })).body).toMatchObject({ active: true, disabled_reason: null });
    await emit('crawl.completed', { n: 3 });
    const got = await receiver.waitFor(2, '/e2e-gone');
    expect(got.map((d) => d.payload.data)).toEqual([{}, { n: 3 }]);
    await send('DELETE', `/v1/webhooks/${hook.id}`);
  });
});

describe('OpenAPI', () => {
  test('documents the webhook routes, map and every event payload, with every $ref resolvable', async () => {
    const doc = (await trawl.get('/openapi.json')).body;
    for (const path of ['/v1/webhooks', '/v1/webhooks/{id}', '/v1/webhooks/{id}/deliveries', '/v1/map'])
      expect(doc.paths[path]).toBeDefined();
    expect(Object.keys(doc.paths['/v1/webhooks/{id}']).sort()).toEqual(['delete', 'get', 'patch']);
    expect(Object.keys(doc.webhooks).sort()).toEqual([
      'batch.completed',
      'crawl.completed',
      'crawl.failed',
      'lead.batch.completed',
      'social.monitor.matched',
      'watch.changed',
    ]);
    expect(doc.webhooks['crawl.completed'].post.requestBody.content['application/json'].schema.properties.data).toEqual({
      $ref: '#/components/schemas/CrawlEvent',
    });
    expect(doc.paths['/v1/webhooks'].post.requestBody.content['application/json'].schema.properties.events.items.enum).toEqual([
      'crawl.completed',
      'crawl.failed',
      'batch.completed',
      'lead.batch.completed',
    ]);
    const refs = JSON.stringify(doc).match(/"#\/components\/schemas\/[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of new Set(refs)) expect(doc.components.schemas[JSON.parse(ref).split('/').pop()]).toBeDefined();
  });
});
