// The check worker's delivery choice: a chat-platform URL gets its native messages unsigned
// through the bus's direct delivery (several when the matches do not fit one), any other URL the
// spec's payload as a signed event; and a source at its rate limit queues the check for the reset.
import { describe, expect, test } from 'bun:test';
import pino from 'pino';
import { TrawlError } from '../../errors.ts';
import { quotaSpent } from '../../kinds/social.ts';
import type { DbJobQueue } from '../../jobs/queue.ts';
import type { SocialHandler, SocialPost } from '../../plugin.ts';
import type { DirectDelivery, EventBus, JobSpec, OutboundEvent } from '../../services.ts';
import { createCheckWorker } from './check.ts';
import { socialConfigSchema } from './config.ts';
import type { Monitor, MonitorStore } from './store.ts';

const post = (n: number): SocialPost => ({
  id: String(n),
  screenName: 'harbour',
  text: `tide ${n}`,
  url: `https://x.com/harbour/status/${n}`,
  createdAt: '',
  favoriteCount: 0,
  retweetCount: 0,
  replyCount: 0,
  lang: 'en',
  isRetweet: false,
  isReply: false,
  isQuote: false,
});

function world(webhookUrl: string, posts: SocialPost[] | Error) {
  const monitor: Monitor = {
    id: 'm1',
    workspace: 'w',
    kind: 'search',
    target: 'tide',
    name: 'Tides',
    intervalMinutes: 15,
    webhookUrl,
    active: true,
    includeRetweets: true,
    includeReplies: true,
    includeQuotes: true,
    minFaves: 0,
    keyword: null,
    lang: null,
    sourceId: null,
    cursor: '1',
    lastCheckedAt: '2026-11-25T00:00:00.000Z',
    lastMatchedAt: null,
    lastError: null,
    createdAt: '',
  };
  const sent = {
    events: [] as OutboundEvent[],
    direct: [] as DirectDelivery[],
    queued: [] as JobSpec[],
    errors: [] as string[],
    paused: [] as string[],
  };
  const store = {
    byId: async () => monitor,
    recordCheck: async () => {},
    recordError: async (_: string, e: string) => {
      sent.errors.push(e);
    },
  } as unknown as MonitorStore;
  const source: SocialHandler = {
    resolveHandle: async () => '42',
    posts: async () => {
      if (posts instanceof Error) throw posts;
      return { posts, cursor: posts.at(-1)?.id ?? '1' };
    },
    audience: async () => ({ users: [], next: null }),
  };
  const bus: EventBus = {
    emit: async (e) => {
      sent.events.push(e);
    },
    deliver: async (d) => {
      sent.direct.push(d);
    },
    onOutcome: () => {},
  };
  const queue = {
    enqueue: async (spec: JobSpec) => {
      sent.queued.push(spec);
      return 'j';
    },
  } as unknown as DbJobQueue;
  const worker = createCheckWorker({
    store,
    source: () => source,
    queue: () => queue,
    events: () => bus,
    settings: socialConfigSchema.parse({ chatPostsPerMessage: 2 }),
    logger: pino({ level: 'silent' }),
    now: () => 1_000_000,
    pause: async (m, reason) => {
      sent.paused.push(`${m.id}: ${reason}`);
    },
  });
  const run = () =>
    worker.handle(
      { id: 'j', kind: 'social.check', workspace: 'w', payload: { subject: 'm1' }, group: null, attempt: 1, maxAttempts: 2 },
      new AbortController().signal,
    );
  return { sent, run };
}

describe('social.check deliveries', () => {
  test('a Slack URL gets native messages, unsigned, split by chatPostsPerMessage', async () => {
    const { sent, run } = world('https://hooks.slack.com/services/T1/B1/abc', [post(2), post(3), post(4)]);
    await run();
    expect(sent.events).toEqual([]);
    expect(sent.direct.map((d) => [d.signature, JSON.parse(d.body).text])).toEqual([
      ['none', '2 new posts for Tides'],
      ['none', '1 new post for Tides'],
    ]);
  });

  test('any other URL gets the spec payload as a signed event', async () => {
    const { sent, run } = world('https://hooks.example.com/in', [post(2)]);
    await run();
    expect(sent.direct).toEqual([]);
    expect(sent.events[0]).toMatchObject({
      type: 'social.monitor.matched',
      bare: true,
      url: 'https://hooks.example.com/in',
      data: { monitor_id: 'm1', new_count: 1 },
    });
  });

  test('a rate limit queues the check for the reset and is skipped (refunded), not failed', async () => {
    const { sent, run } = world('https://hooks.example.com/in', new TrawlError('rate_limited', 'limit', { retryAfterSeconds: 90 }));
    expect(await run()).toBe('skipped');
    expect(sent.queued[0]).toMatchObject({ kind: 'social.check', payload: { subject: 'm1' }, runAt: new Date(1_000_000 + 90_000) });
    expect(sent.errors[0]).toContain('checking again at 1970-01-01T00:18:10.000Z');
  });

  test('a spent usage cap pauses the monitor instead of failing every check', async () => {
    const { sent, run } = world(
      'https://hooks.example.com/in',
      quotaSpent('the social API refused: its usage cap or credits are spent (HTTP 402)'),
    );
    expect(await run()).toBe('skipped');
    expect(sent.paused).toEqual(['m1: the social API refused: its usage cap or credits are spent (HTTP 402)']);
    expect(sent.queued).toEqual([]);
  });
});
