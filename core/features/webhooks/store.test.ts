// The webhook registry and delivery log on every test database: CRUD, workspace scoping,
// subscription lookup, sealed secrets and pagination.
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { sql } from 'kysely';
import type { Storage } from '../../services.ts';
import { testDatabases } from '../../../test/helpers/databases.ts';
import { createSecretBox } from './signing.ts';
import { createWebhookStore, type WebhookStore } from './store.ts';

const delivery = (webhookId: string, attempt: number) => ({
  webhookId,
  workspace: 'default',
  messageId: 'msg_1',
  event: 'crawl.completed',
  url: 'https://example.com/hook',
  attempt,
  outcome: 'retrying' as const,
  statusCode: 500,
  error: 'receiver answered HTTP 500',
  durationMs: 12.4,
  nextAttemptAt: null,
});

for (const database of testDatabases()) {
  describe(`webhook store (${database.name})`, () => {
    let storage: Storage;
    let store: WebhookStore;
    beforeEach(async () => {
      storage = await database.open();
      store = createWebhookStore(storage, createSecretBox('operator-key-for-tests'));
    });
    afterEach(() => storage.close());

    test('create returns the secret once; reads never include it; it is stored sealed', async () => {
      const { webhook, secret } = await store.create('default', {
        url: 'https://example.com/hook',
        events: ['crawl.completed', 'crawl.completed'],
      });
      expect(secret).toMatch(/^whsec_/);
      expect(webhook).toMatchObject({ url: 'https://example.com/hook', events: ['crawl.completed'], active: true, disabledReason: null });
      expect(JSON.stringify(await store.get('default', webhook.id))).not.toContain(secret);
      const raw = await sql<{ secret: string }>`select secret from webhooks`.execute(storage.db);
      expect(raw.rows[0]!.secret).not.toContain(secret.slice(6));
      expect((await store.forDelivery(webhook.id))?.secret).toBe(secret);
    });

    test('another workspace sees nothing, cannot update or delete', async () => {
      const { webhook } = await store.create('default', { url: 'https://example.com/hook', events: ['batch.completed'] });
      expect(await store.get('other', webhook.id)).toBeNull();
      expect(await store.update('other', webhook.id, { url: 'https://evil.example/' })).toBeNull();
      expect(await store.delete('other', webhook.id)).toBe(false);
      expect((await store.list('other', { offset: 0, limit: 10 })).total).toBe(0);
      expect(await store.subscribers('other', 'batch.completed')).toEqual([]);
      expect((await store.get('default', webhook.id))?.url).toBe('https://example.com/hook');
    });

    test('update changes url and events; active toggles with a reason', async () => {
      const { webhook } = await store.create('default', { url: 'https://example.com/a', events: ['crawl.completed'] });
      const updated = await store.update('default', webhook.id, {
        url: 'https://example.com/b',
        events: ['crawl.failed', 'batch.completed'],
      });
      expect(updated).toMatchObject({ url: 'https://example.com/b', events: ['crawl.failed', 'batch.completed'] });
      expect(updated!.updatedAt >= webhook.updatedAt).toBe(true);
      expect(await store.update('default', webhook.id, { active: false })).toMatchObject({
        active: false,
        disabledReason: 'disabled by request',
      });
      expect(await store.update('default', webhook.id, { active: true })).toMatchObject({ active: true, disabledReason: null });
      expect(await store.update('default', 'no-such-id', { active: true })).toBeNull();
    });

    test('subscribers are the active registrations subscribed to the event', async () => {
      const a = await store.create('default', { url: 'https://example.com/a', events: ['crawl.completed'] });
      const b = await store.create('default', { url: 'https://example.com/b', events: ['crawl.completed', 'crawl.failed'] });
      await store.create('default', { url: 'https://example.com/c', events: ['batch.completed'] });
      await store.disable(b.webhook.id, 'receiver answered HTTP 410 Gone');
      expect((await store.subscribers('default', 'crawl.completed')).map((w) => w.id)).toEqual([a.webhook.id]);
      expect(await store.subscribers('default', 'crawl.failed')).toEqual([]);
      expect((await store.get('default', b.webhook.id))?.disabledReason).toBe('receiver answered HTTP 410 Gone');
    });

    test('list is newest first and paginated; count matches', async () => {
      for (let i = 0; i < 5; i++) await store.create('default', { url: `https://example.com/${i}`, events: ['crawl.completed'] });
      expect(await store.count('default')).toBe(5);
      const first = await store.list('default', { offset: 0, limit: 2 });
      expect(first.total).toBe(5);
      expect(first.items.map((w) => w.url)).toEqual(['https://example.com/4', 'https://example.com/3']);
      expect((await store.list('default', { offset: 4, limit: 2 })).items.map((w) => w.url)).toEqual(['https://example.com/0']);
      expect((await store.list('default', { offset: 6, limit: 2 })).items).toEqual([]);
    });

    test('the delivery log is per webhook, newest first, and goes with the webhook', async () => {
      const { webhook } = await store.create('default', { url: 'https://example.com/hook', events: ['crawl.completed'] });
      await store.logDelivery(delivery(webhook.id, 1));
      const second = await store.logDelivery({ ...delivery(webhook.id, 2), outcome: 'delivered', statusCode: 200, error: null });
      expect(second).toMatchObject({ attempt: 2, outcome: 'delivered', statusCode: 200, durationMs: 12 });
      const page = await store.deliveries('default', webhook.id, { offset: 0, limit: 1 });
      expect(page.total).toBe(2);
      expect(page.items.map((d) => d.attempt)).toEqual([2]);
      expect((await store.deliveries('other', webhook.id, { offset: 0, limit: 10 })).total).toBe(0);
      expect(await store.delete('default', webhook.id)).toBe(true);
      expect((await store.deliveries('default', webhook.id, { offset: 0, limit: 10 })).total).toBe(0);
      expect(await store.forDelivery(webhook.id)).toBeNull();
    });
  });
}
