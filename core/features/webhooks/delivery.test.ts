// The event bus and the webhook.delivery handler, run directly (no queue): the bus's enqueued jobs
// are captured and handed to the handler as claimed jobs. Deliveries go through the real HTTP
// client to a receiver that verifies signatures with the reference library.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import pino from 'pino';
import { createHttpClient } from '../../net/http-client.ts';
import type { ClaimedJob, EventBus, JobHandler, JobQueue, JobSpec, Storage } from '../../services.ts';
import { openStorage } from '../../storage/db.ts';
import { featureMigrations } from '../../feature-migrations.ts';
import { startFixtureSite, type FixtureSite } from '../../../test/helpers/fixture-site.ts';
import { testConfig } from '../../../test/helpers/plugin-context.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/servers/webhook-receiver.ts';
import { createDeliveryHandler } from './delivery.ts';
import { createEventBus, createOutcomeListeners, DELIVERY_KIND, type OutcomeListeners } from './events.ts';
import { createSecretBox, newSigningSecret } from './signing.ts';
import { createWebhookStore, type WebhookStore } from './store.ts';
import { webhooksFeature } from './index.ts';

/** Captures what the bus and the handler enqueue; the real queue is tested in core/jobs. */
function recordingJobs() {
  const specs: JobSpec[] = [];
  const record = async (spec: JobSpec) => String(specs.push(spec));
  const queue: JobQueue = {
    enqueue: record,
    enqueueMany: async (many) => Promise.all(many.map(record)),
    handle() {},
    cancelGroup: async () => 0,
    start() {},
    stop: async () => {},
    stats: async () => ({ kinds: [], workersAlive: 0 }),
  };
  return { specs, queue, take: () => specs.splice(0) };
}

const claimed = (spec: JobSpec): ClaimedJob => ({
  id: 'job',
  kind: spec.kind,
  workspace: spec.workspace,
  payload: spec.payload,
  group: null,
  attempt: 1,
  maxAttempts: 3,
});

let receiver: WebhookReceiver;
let slow: FixtureSite;
beforeAll(() => {
  receiver = startWebhookReceiver();
  slow = startFixtureSite({ '/slow': { body: 'ok', delayMs: 2000 } });
});
afterAll(async () => {
  await Promise.all([receiver.stop(), slow.stop()]);
});

describe('webhook delivery', () => {
  let storage: Storage;
  let store: WebhookStore;
  let jobs: ReturnType<typeof recordingJobs>;
  let bus: EventBus;
  let deliver: JobHandler;
  let outcomes: OutcomeListeners;
  const setup = (overrides: { fetch?: object; webhooks?: object } = {}) => {
    const config = testConfig({
      webhooks: { retryBaseMs: 1000, maxAttempts: 3, timeoutMs: 300, ...overrides.webhooks },
      ...(overrides.fetch ? { fetch: overrides.fetch } : {}),
    });
    const logger = pino({ level: 'silent' });
    deliver = createDeliveryHandler({
      http: createHttpClient(config.fetch, logger),
      store,
      jobs: () => jobs.queue,
      config: webhooksFeature.settings(config),
      logger,
      random: () => 0.5,
      outcomes,
    });
  };
  /** Runs every queued delivery once (not waiting for runAt) and returns what the runs enqueued. */
  const runQueued = async () => {
    for (const spec of jobs.take()) await deliver(claimed(spec), new AbortController().signal);
    return jobs.specs;
  };
  const register = async (path: string, events = ['crawl.completed']) => {
    const { webhook, secret } = await store.create('default', { url: receiver.url(path), events });
    receiver.setSecret(path, secret);
    return webhook;
  };

  beforeEach(async () => {
    storage = await openStorage({ dataDir: ':memory:', sqliteFile: ':memory:', migrations: featureMigrations([webhooksFeature]) });
    store = createWebhookStore(storage, createSecretBox(undefined));
    jobs = recordingJobs();
    outcomes = createOutcomeListeners();
    bus = createEventBus({ store, jobs: () => jobs.queue, outcomes });
    setup();
  });
  afterEach(() => storage.close());

  test('an event reaches each subscribed registration once, signed, in the documented envelope', async () => {
    const hook = await register('/ok');
    await register('/other-event', ['batch.completed']);
    await bus.emit({ type: 'crawl.completed', workspace: 'default', data: { id: 'crawl-1', status: 'completed' } });
    await bus.emit({ type: 'crawl.completed', workspace: 'elsewhere', data: { id: 'crawl-2' } });
    expect(jobs.specs.map((s) => s.kind)).toEqual([DELIVERY_KIND]);
    expect(await runQueued()).toEqual([]);
    const [got] = receiver.received('/ok');
    expect(got?.verified).toBe(true);
    expect(got?.payload).toEqual({ type: 'crawl.completed', timestamp: expect.any(String), data: { id: 'crawl-1', status: 'completed' } });
    expect(got?.headers['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(receiver.received('/other-event')).toEqual([]);
    const log = await store.deliveries('default', hook.id, { offset: 0, limit: 10 });
    expect(log.items).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'delivered', statusCode: 200, error: null, event: 'crawl.completed' }),
    ]);
  });

  test('a 500 is retried later under the same webhook-id, with backoff, and then delivered', async () => {
    const hook = await register('/flaky');
    receiver.script('/flaky', 500, 503);
    await bus.emit({ type: 'crawl.completed', workspace: 'default', data: { id: 'c' } });
    const before = Date.now();
    const [retry] = await runQueued();
    const after = Date.now();
    expect(retry?.payload.attempt).toBe(2);
    // base 1000 ms, attempt 1, jitter factor 1.0: 1000 ms after the moment it was computed
    expect(retry!.runAt!.getTime() - before).toBeGreaterThanOrEqual(1000);
    expect(retry!.runAt!.getTime() - after).toBeLessThanOrEqual(1000);
    const [third] = await runQueued();
    expect(third?.payload.attempt).toBe(3);
    expect(await runQueued()).toEqual([]);
    const got = receiver.received('/flaky');
    expect(got.map((d) => d.answered)).toEqual([500, 503, 200]);
    expect(got.every((d) => d.verified)).toBe(true);
    expect(new Set(got.map((d) => d.headers['webhook-id'])).size).toBe(1);
    const log = await store.deliveries('default', hook.id, { offset: 0, limit: 10 });
    expect(log.items.map((d) => [d.attempt, d.outcome, d.statusCode])).toEqual([
      [3, 'delivered', 200],
      [2, 'retrying', 503],
      [1, 'retrying', 500],
    ]);
    expect(log.items[2]?.nextAttemptAt).not.toBeNull();
    expect(log.items[2]?.error).toBe('receiver answered HTTP 500');
  });

  test('after maxAttempts the message is given up', async () => {
    const hook = await register('/down');
    receiver.script('/down', 500, 500, 500, 500);
    await bus.emit({ type: 'crawl.completed', workspace: 'default', data: {} });
    await runQueued();
    await runQueued();
    expect(await runQueued()).toEqual([]);
    expect(receiver.received('/down')).toHaveLength(3);
    const log = await store.deliveries('default', hook.id, { offset: 0, limit: 10 });
    expect(log.items[0]).toMatchObject({ attempt: 3, outcome: 'failed', nextAttemptAt: null });
  });

  test('410 Gone disables the registration: no retry, no further deliveries', async () => {
    const hook = await register('/gone');
    receiver.script('/gone', 410);
    await bus.emit({ type: 'crawl.completed', workspace: 'default', data: {} });
    expect(await runQueued()).toEqual([]);
    expect(await store.get('default', hook.id)).toMatchObject({ active: false, disabledReason: 'receiver answered HTTP 410 Gone' });
    expect((await store.deliveries('default', hook.id, { offset: 0, limit: 10 })).items[0]).toMatchObject({
      outcome: 'disabled',
      statusCode: 410,
    });
    await bus.emit({ type: 'crawl.completed', workspace: 'default', data: {} });
    expect(jobs.specs).toEqual([]);
    expect(receiver.received('/gone')).toHaveLength(1);
  });

  test('a delivery queued before its webhook was deleted or disabled is dropped', async () => {
    const a = await register('/deleted');
    const b = await register('/disabled');
    await bus.emit({ type: 'crawl.completed', workspace: 'default', data: {} });
    await store.delete('default', a.id);
    await store.update('default', b.id, { active: false });
    expect(await runQueued()).toEqual([]);
    expect(receiver.received('/deleted')).toEqual([]);
    expect(receiver.received('/disabled')).toEqual([]);
  });

  test("an event's own url is delivered too, signed with webhooks.signingSecret", async () => {
    const secret = newSigningSecret();
    setup({ webhooks: { signingSecret: secret } });
    receiver.setSecret('/crawl-hook', secret);
    await bus.emit({ type: 'crawl.failed', workspace: 'default', data: { id: 'c' }, url: receiver.url('/crawl-hook') });
    await runQueued();
    expect(receiver.received('/crawl-hook').map((d) => [d.verified, d.payload.type])).toEqual([[true, 'crawl.failed']]);
  });

  test('without a signing secret an event url gets an unsigned delivery; a 410 there just stops', async () => {
    receiver.script('/unsigned', 410);
    await bus.emit({ type: 'crawl.failed', workspace: 'default', data: {}, url: receiver.url('/unsigned') });
    expect(await runQueued()).toEqual([]);
    const [got] = receiver.received('/unsigned');
    expect(got?.headers['webhook-signature']).toBeUndefined();
    expect(got?.headers['webhook-id']).toMatch(/^msg_/);
  });

  test('the SSRF guard applies: a loopback receiver is refused, logged as failed, never contacted nor retried', async () => {
    setup({ fetch: { allowPrivateNetwork: false } });
    const hook = await register('/private');
    await bus.emit({ type: 'crawl.completed', workspace: 'default', data: {} });
    expect(await runQueued()).toEqual([]);
    expect(receiver.received('/private')).toEqual([]);
    const [entry] = (await store.deliveries('default', hook.id, { offset: 0, limit: 10 })).items;
    expect(entry).toMatchObject({ attempt: 1, outcome: 'failed', statusCode: null, nextAttemptAt: null });
    expect(entry?.error).toContain('address 127.0.0.1 is not allowed');
  });

  test('a delivery with an origin reports every attempt to the listener of its kind', async () => {
    const reports: unknown[] = [];
    bus.onOutcome('watch', async (report) => {
      reports.push(report);
    });
    receiver.script('/reported', 500);
    await bus.deliver({
      workspace: 'default',
      event: 'watch.changed',
      url: receiver.url('/reported'),
      body: '{}',
      headers: {},
      signature: 'standard',
      origin: { kind: 'watch', subject: 'w1' },
    });
    await bus.emit({ type: 'crawl.completed', workspace: 'default', data: {}, url: receiver.url('/unreported') });
    await runQueued();
    await runQueued();
    expect(reports).toEqual([
      {
        origin: { kind: 'watch', subject: 'w1' },
        url: receiver.url('/reported'),
        outcome: 'retrying',
        error: 'receiver answered HTTP 500',
        attempt: 1,
        at: expect.any(String),
      },
      {
        origin: { kind: 'watch', subject: 'w1' },
        url: receiver.url('/reported'),
        outcome: 'delivered',
        error: null,
        attempt: 2,
        at: expect.any(String),
      },
    ]);
    expect(receiver.received('/unreported')).toHaveLength(1);
  });

  test('a network failure is still retried', async () => {
    const site = startFixtureSite({});
    const url = site.at('/hook');
    await site.stop();
    await bus.emit({ type: 'crawl.completed', workspace: 'default', data: {}, url });
    const [retry] = await runQueued();
    expect(retry?.payload).toMatchObject({ attempt: 2, url });
  });

  test('a receiver slower than webhooks.timeoutMs is a failed attempt', async () => {
    const { webhook } = await store.create('default', { url: slow.at('/slow'), events: ['crawl.completed'] });
    await bus.emit({ type: 'crawl.completed', workspace: 'default', data: {} });
    await runQueued();
    const [entry] = (await store.deliveries('default', webhook.id, { offset: 0, limit: 10 })).items;
    expect(entry).toMatchObject({ outcome: 'retrying', statusCode: null });
    expect(entry?.error).toMatch(/timeout|timed out/);
  });

  test('a malformed job payload fails permanently instead of being retried', async () => {
    const job = claimed({ kind: DELIVERY_KIND, workspace: 'default', payload: { messageId: 'm', event: 'e', body: '{}', attempt: 1 } });
    const error = await deliver(job, new AbortController().signal).then(
      () => null,
      (err) => err,
    );
    expect(error).toMatchObject({ permanent: true });
  });
});
