/**
 * Social monitors and audience export end to end (self-hosted), with `social.x` talking through
 * twitter-api-v2 to the protocol-faithful API v2 server: 503 without a source, every field's
 * validation, clamp and default, the create/list/get/patch/delete shapes, the 50-monitor limit, the
 * first check setting the cursor without firing, later checks firing `social.monitor.matched`
 * (signed, verified by a receiver) for new posts passing every filter, a rate limit rescheduling
 * the check instead of failing it, and audience paging until `next_cursor` is null.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { newSigningSecret } from '../../core/features/webhooks/signing.ts';
import type { Storage } from '../../core/services.ts';
import { testDatabases } from '../helpers/databases.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../servers/webhook-receiver.ts';
import { startXApiServer, X_TEST_TOKEN, type XApiServer } from '../servers/x-api.ts';

setDefaultTimeout(30_000);

const SECRET = newSigningSecret();
const id = (n: number) => String(1_900_000_000_000_000_000n + BigInt(n));
let api: XApiServer;
let trawl: TestServer;
let receiver: WebhookReceiver;

beforeAll(() => {
  api = startXApiServer();
  receiver = startWebhookReceiver();
  receiver.setSecret('/matched', SECRET);
});
afterAll(async () => {
  await receiver.stop();
  api.stop();
});
beforeEach(() => {
  api.users.splice(0, Infinity, { id: '42', username: 'harbour', name: 'Harbour' }, { id: '43', username: 'fleet', name: 'Fleet' });
  api.tweets.splice(0, Infinity, { id: id(1), author_id: '42', text: 'old news', like_count: 50 });
  api.remaining = 1000;
});

async function checked(monitorId: string, after: string | null = null): Promise<any> {
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await Bun.sleep(30)) {
    const { body } = await trawl.get(`/v1/social/monitors/${monitorId}`);
    if (body.last_checked_at !== after || (body.last_error ?? '').includes('checking again')) return body;
  }
  throw new Error('the check did not finish');
}

for (const database of testDatabases()) {
  describe(`social (${database.name})`, () => {
    let storage: Storage;
    beforeAll(async () => {
      storage = await database.open();
      trawl = await startTrawlServer({
        storage,
        env: { TRAWL_PLUGINS_SOCIAL_X_BEARER_TOKEN: X_TEST_TOKEN, TRAWL_PLUGINS_SOCIAL_X_BASE_URL: api.url },
        overrides: { webhooks: { signingSecret: SECRET }, jobs: { pollIntervalMs: 30, retryBaseMs: 10, retryMaxMs: 20 } },
      });
    });
    afterAll(async () => {
      await trawl.stop();
      await storage.close();
    });

    describe('social monitors', () => {
      test('without a source every social route is a 503 saying what to configure', async () => {
        const bare = await startTrawlServer();
        try {
          for (const [method, path] of [
            ['POST', '/v1/social/monitors'],
            ['GET', '/v1/social/monitors'],
            ['POST', '/v1/social/audience'],
          ] as const) {
            const answer = await bare.call(path, {
              method,
              body: method === 'POST' ? (path.endsWith('audience') ? { handle: 'a' } : { kind: 'search', target: 'x' }) : undefined,
            });
            expect([answer.status, answer.body.error]).toEqual([503, expect.stringContaining('TRAWL_PLUGINS_SOCIAL_X_BEARER_TOKEN')]);
          }
        } finally {
          await bare.stop();
        }
      });

      test('create answers the core fields with defaults, clamps the interval, strips @; list, get, patch and delete', async () => {
        const created = await trawl.post('/v1/social/monitors', { kind: 'profile', target: '@harbour', interval_minutes: 1 });
        expect(created.status).toBe(201);
        expect(created.body).toEqual({
          id: expect.any(String),
          kind: 'profile',
          target: 'harbour',
          name: 'harbour',
          interval_minutes: 5,
          webhook_url: null,
          active: true,
        });
        const full = (await trawl.get(`/v1/social/monitors/${created.body.id}`)).body;
        expect(full).toMatchObject({
          include_retweets: true,
          include_replies: true,
          include_quotes: true,
          min_faves: 0,
          keyword: null,
          lang: null,
          last_matched_at: null,
          created_at: expect.any(String),
        });
        expect(
          (await trawl.post('/v1/social/monitors', { kind: 'search', target: 'tide', interval_minutes: 999_999 })).body.interval_minutes,
        ).toBe(10_080);
        expect((await trawl.post('/v1/social/monitors', { kind: 'list', target: '7' })).body.interval_minutes).toBe(15);
        const patched = await trawl.call(`/v1/social/monitors/${created.body.id}`, {
          method: 'PATCH',
          body: { name: 'Harbour feed', active: false, interval_minutes: 20_000 },
        });
        expect(patched.body).toEqual({ success: true });
        expect((await trawl.get(`/v1/social/monitors/${created.body.id}`)).body).toMatchObject({
          name: 'Harbour feed',
          active: false,
          interval_minutes: 10_080,
        });
        const listed = (await trawl.get('/v1/social/monitors?limit=2&offset=1')).body.monitors;
        expect(listed.length).toBe(2);
        expect(listed[1].id).toBe(created.body.id);
        expect((await trawl.call(`/v1/social/monitors/${created.body.id}`, { method: 'DELETE' })).body).toEqual({ success: true });
        expect((await trawl.get(`/v1/social/monitors/${created.body.id}`)).status).toBe(404);
      });

      test('invalid fields are 400s that name them', async () => {
        const bad = async (body: unknown) => (await trawl.post('/v1/social/monitors', body)).body.error as string;
        expect(await bad({ target: 'x' })).toMatch(/kind/);
        expect(await bad({ kind: 'profile', target: 'not a handle!' })).toMatch(/target/);
        expect(await bad({ kind: 'replies', target: 'abc' })).toMatch(/numeric post id/);
        expect(await bad({ kind: 'search', target: 'x', min_faves: -1 })).toMatch(/min_faves/);
        expect(await bad({ kind: 'search', target: 'x', lang: 'english!' })).toMatch(/lang/);
        expect(await bad({ kind: 'search', target: 'x', webhook_url: 'ftp://x' })).toMatch(/webhook_url/);
        expect((await trawl.get('/v1/social/monitors?limit=0')).status).toBe(400);
        expect((await trawl.call('/v1/social/monitors/x', { method: 'PATCH', body: {} })).status).toBe(400);
      });

      test('the first check sets the cursor without firing; later checks fire once for new posts passing every filter', async () => {
        const created = await trawl.post('/v1/social/monitors', {
          kind: 'profile',
          target: 'harbour',
          webhook_url: receiver.url('/matched'),
          min_faves: 5,
          keyword: 'TIDE',
          lang: 'en',
          include_quotes: false,
        });
        const first = await checked(created.body.id);
        expect(first.last_matched_at).toBeNull();
        api.tweets.push(
          { id: id(2), author_id: '42', text: 'Tide tables out', like_count: 9, lang: 'en' },
          { id: id(3), author_id: '42', text: 'tide is low', like_count: 1, lang: 'en' },
          { id: id(4), author_id: '42', text: 'Tide notice', like_count: 9, lang: 'de' },
          { id: id(5), author_id: '42', text: 'quoting the tide', like_count: 9, lang: 'en', refs: [{ type: 'quoted', id: id(1) }] },
          { id: id(6), author_id: '42', text: 'no keyword', like_count: 9, lang: 'en' },
          { id: id(7), author_id: '42', text: 'High tide at six', like_count: 12, lang: 'en' },
        );
        expect((await trawl.post(`/v1/social/monitors/${created.body.id}/check`, undefined)).body).toEqual({ status: 'checking' });
        const before = receiver.received('/matched').length;
        const [delivery] = (await receiver.waitFor(before + 1, '/matched')).slice(before);
        expect(delivery!.verified).toBe(true);
        expect(delivery!.payload).toEqual({
          event: 'social.monitor.matched',
          monitor_id: created.body.id,
          kind: 'profile',
          target: 'harbour',
          new_count: 2,
          checked_at: expect.any(String),
          tweets: [id(2), id(7)].map((tweetId) =>
            expect.objectContaining({
              id: tweetId,
              screen_name: 'harbour',
              url: `https://x.com/harbour/status/${tweetId}`,
              lang: 'en',
              is_retweet: false,
              is_reply: false,
              is_quote: false,
            }),
          ),
        });
        expect(Object.keys(delivery!.payload.tweets[0]).sort()).toEqual([
          'created_at',
          'favorite_count',
          'id',
          'is_quote',
          'is_reply',
          'is_retweet',
          'lang',
          'reply_count',
          'retweet_count',
          'screen_name',
          'text',
          'url',
        ]);
        const after = await checked(created.body.id, first.last_checked_at);
        expect(after.last_matched_at).not.toBeNull();
        // Nothing new: the next check fires nothing.
        await trawl.post(`/v1/social/monitors/${created.body.id}/check`, undefined);
        await checked(created.body.id, after.last_checked_at);
        expect(receiver.received('/matched').length).toBe(before + 1);
      });

      test('a rate-limited check waits for the reset instead of failing', async () => {
        const created = await trawl.post('/v1/social/monitors', { kind: 'search', target: 'tide' });
        const first = await checked(created.body.id);
        api.remaining = 0;
        api.resetAt = Math.floor(Date.now() / 1000) + 600;
        await trawl.post(`/v1/social/monitors/${created.body.id}/check`, undefined);
        const waiting = await checked(created.body.id, first.last_checked_at);
        expect(waiting.last_error).toMatch(/rate limit is reached .* checking again at/);
        expect(waiting.last_checked_at).toBe(first.last_checked_at);
        expect(waiting.active).toBe(true);
      });

      test('at most 50 monitors per workspace', async () => {
        const existing = (await trawl.get('/v1/social/monitors?limit=100')).body.monitors.length;
        for (let i = existing; i < 50; i++)
          expect((await trawl.post('/v1/social/monitors', { kind: 'list', target: String(100 + i), webhook_url: undefined })).status).toBe(
            201,
          );
        const refused = await trawl.post('/v1/social/monitors', { kind: 'list', target: '1' });
        expect([refused.status, refused.body.error]).toEqual([409, 'Monitor limit reached: at most 50 social monitors per workspace']);
      });
    });

    test('OpenAPI marks every social operation and the event beta', async () => {
      const doc = (await trawl.get('/openapi.json')).body;
      const ops = Object.entries(doc.paths)
        .filter(([path]) => path.startsWith('/v1/social/'))
        .flatMap(([, item]) => Object.values(item as object));
      expect(ops.length).toBe(7);
      for (const op of ops) expect([op['x-beta'], op.summary.startsWith('Beta: ')]).toEqual([true, true]);
      expect(JSON.stringify(doc.webhooks['social.monitor.matched'])).toContain('Beta: social.monitor.matched');
    });

    describe('audience export', () => {
      test('pages until next_cursor is null, resolving the handle once; cursors are bound to their account', async () => {
        for (let n = 0; n < 2500; n++)
          api.users.push({ id: String(5000 + n), username: `sailor${n}`, name: `Sailor ${n}`, followers_count: n, description: 'at sea' });
        api.followers.set(
          '42',
          api.users.slice(2).map((u) => u.id),
        );
        api.requests.length = 0;
        const first = await trawl.post('/v1/social/audience', { handle: '@harbour', max_pages: 2 });
        const cursor = first.body.next_cursor;
        expect(typeof cursor).toBe('string');
        expect(first.body).toMatchObject({ user_id: '42', direction: 'followers', count: 2000, pages_fetched: 2, credits_charged: 0 });
        expect(first.body.users[0]).toEqual({
          id: '5000',
          screen_name: 'sailor0',
          name: 'Sailor 0',
          followers: 0,
          description: 'at sea',
          url: '',
        });
        const last = await trawl.post('/v1/social/audience', { user_id: '42', cursor });
        expect(last.body).toMatchObject({ count: 500, pages_fetched: 1, next_cursor: null });
        expect(api.requests.filter((r) => r.path.startsWith('/2/users/by/')).length).toBe(1);
        expect((await trawl.post('/v1/social/audience', { user_id: '43', cursor })).status).toBe(400);
        expect((await trawl.post('/v1/social/audience', { handle: 'harbour', max_pages: 11 })).status).toBe(400);
        expect((await trawl.post('/v1/social/audience', { direction: 'following' })).body.error).toBe(
          'Missing required field: handle or user_id',
        );
        expect((await trawl.post('/v1/social/audience', { handle: 'nobody' })).status).toBe(404);
      });
    });
  });
}
