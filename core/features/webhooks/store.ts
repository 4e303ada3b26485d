/**
 * The webhook registry and its delivery log, per workspace, on SQLite or Postgres. Every read of a
 * registration is scoped to the workspace, so another workspace's id behaves like an unknown one.
 */
import type { Selectable } from 'kysely';
import type { InjectionToken } from 'tsyringe';
import type { Storage } from '../../services.ts';
import type { WebhookDeliveriesTable, WebhookTables, WebhooksTable } from './tables.ts';
import { boundedWindow, nowIso, readBool, readInt, readJson, writeBool, type Window } from '../../storage/values.ts';
import { newSigningSecret, type SecretBox } from './signing.ts';

/** The events a registration can subscribe to. */
export const WEBHOOK_EVENTS = ['crawl.completed', 'crawl.failed', 'batch.completed', 'lead.batch.completed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface Webhook {
  id: string;
  workspace: string;
  url: string;
  events: string[];
  active: boolean;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed' | 'disabled';

export interface WebhookDelivery {
  id: string;
  webhookId: string | null;
  workspace: string;
  messageId: string;
  event: string;
  url: string;
  attempt: number;
  outcome: DeliveryOutcome;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  nextAttemptAt: string | null;
  createdAt: string;
}

export interface WebhookStore {
  /** Returns the registration and its secret, which is never shown again. */
  create(workspace: string, input: { url: string; events: string[] }): Promise<{ webhook: Webhook; secret: string }>;
  count(workspace: string): Promise<number>;
  list(workspace: string, query: Window): Promise<{ items: Webhook[]; total: number }>;
  get(workspace: string, id: string): Promise<Webhook | null>;
  /** Null when the id is unknown in this workspace. Re-activating clears the disabled reason. */
  update(workspace: string, id: string, patch: { url?: string; events?: string[]; active?: boolean }): Promise<Webhook | null>;
  /** Removes the registration and its delivery log; false when unknown. */
  delete(workspace: string, id: string): Promise<boolean>;
  /** Active registrations of the workspace subscribed to `event`. */
  subscribers(workspace: string, event: string): Promise<Webhook[]>;
  /** The registration (any workspace) with its opened secret, for the delivery worker. */
  forDelivery(id: string): Promise<{ webhook: Webhook; secret: string } | null>;
  disable(id: string, reason: string): Promise<void>;
  logDelivery(row: Omit<WebhookDelivery, 'id' | 'createdAt'>): Promise<WebhookDelivery>;
  deliveries(workspace: string, webhookId: string, query: Window): Promise<{ items: WebhookDelivery[]; total: number }>;
}

export const WebhookStoreToken = Symbol('WebhookStore') as InjectionToken<WebhookStore>;

const MAX_PER_PAGE = 100;

function toWebhook(row: Selectable<WebhooksTable>): Webhook {
  return {
    id: row.id,
    workspace: row.workspace_id,
    url: row.url,
    events: readJson<string[]>(row.events),
    active: readBool(row.active),
    disabledReason: row.disabled_reason,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toDelivery(row: Selectable<WebhookDeliveriesTable>): WebhookDelivery {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    workspace: row.workspace_id,
    messageId: row.message_id,
    event: row.event,
    url: row.url,
    attempt: readInt(row.attempt),
    outcome: row.outcome as DeliveryOutcome,
    statusCode: row.status_code === null ? null : readInt(row.status_code),
    error: row.error,
    durationMs: readInt(row.duration_ms),
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
  };
}

export function createWebhookStore(storage: Storage, box: SecretBox): WebhookStore {
  const db = storage.db.withTables<WebhookTables>();
  const scoped = (workspace: string, id: string) => db.selectFrom('webhooks').where('workspace_id', '=', workspace).where('id', '=', id);

  const store: WebhookStore = {
    async create(workspace, input) {
      const secret = newSigningSecret();
      const now = nowIso();
      const row: Selectable<WebhooksTable> = {
        id: crypto.randomUUID(),
        workspace_id: workspace,
        url: input.url,
        events: JSON.stringify([...new Set(input.events)]),
        secret: box.seal(secret),
        active: writeBool(true),
        disabled_reason: null,
        created_at: now,
        updated_at: now,
      };
      await db.insertInto('webhooks').values(row).execute();
      return { webhook: toWebhook(row), secret };
    },

    async count(workspace) {
      const row = await db
        .selectFrom('webhooks')
        .where('workspace_id', '=', workspace)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      return readInt(row.n);
    },

    async list(workspace, query) {
      const { limit, offset } = boundedWindow(query, MAX_PER_PAGE);
      const [total, rows] = await Promise.all([
        store.count(workspace),
        db
          .selectFrom('webhooks')
          .selectAll()
          .where('workspace_id', '=', workspace)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .offset(offset)
          .execute(),
      ]);
      return { items: rows.map(toWebhook), total };
    },

    async get(workspace, id) {
      const row = await scoped(workspace, id).selectAll().executeTakeFirst();
      return row ? toWebhook(row) : null;
    },

    async update(workspace, id, patch) {
      const changes: Partial<Selectable<WebhooksTable>> = { updated_at: nowIso() };
      if (patch.url !== undefined) changes.url = patch.url;
      if (patch.events !== undefined) changes.events = JSON.stringify([...new Set(patch.events)]);
      if (patch.active !== undefined) {
        changes.active = writeBool(patch.active);
        changes.disabled_reason = patch.active ? null : 'disabled by request';
      }
      const result = await db
        .updateTable('webhooks')
        .set(changes)
        .where('workspace_id', '=', workspace)
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return null;
      return store.get(workspace, id);
    },

    async delete(workspace, id) {
      const result = await db.deleteFrom('webhooks').where('workspace_id', '=', workspace).where('id', '=', id).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      await db.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
      return true;
    },

    async subscribers(workspace, event) {
      const rows = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('workspace_id', '=', workspace)
        .where('active', '=', writeBool(true))
        .execute();
      return rows.map(toWebhook).filter((w) => w.events.includes(event));
    },

    async forDelivery(id) {
      const row = await db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? { webhook: toWebhook(row), secret: box.open(row.secret) } : null;
    },

    async disable(id, reason) {
      await db
        .updateTable('webhooks')
        .set({ active: writeBool(false), disabled_reason: reason, updated_at: nowIso() })
        .where('id', '=', id)
        .execute();
    },

    async logDelivery(input) {
      const row: Selectable<WebhookDeliveriesTable> = {
        id: crypto.randomUUID(),
        webhook_id: input.webhookId,
        workspace_id: input.workspace,
        message_id: input.messageId,
        event: input.event,
        url: input.url,
        attempt: input.attempt,
        outcome: input.outcome,
        status_code: input.statusCode,
        error: input.error,
        duration_ms: Math.round(input.durationMs),
        next_attempt_at: input.nextAttemptAt,
        created_at: nowIso(),
      };
      await db.insertInto('webhook_deliveries').values(row).execute();
      return toDelivery(row);
    },

    async deliveries(workspace, webhookId, query) {
      const { limit, offset } = boundedWindow(query, MAX_PER_PAGE);
      const base = db.selectFrom('webhook_deliveries').where('workspace_id', '=', workspace).where('webhook_id', '=', webhookId);
      const [counted, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
        base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
      ]);
      return { items: rows.map(toDelivery), total: readInt(counted.n) };
    },
  };
  return store;
}
