/** Table types of the webhook registry and its delivery log; migration.ts creates them. */
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.ts';

/** A registered webhook (POST /v1/webhooks). */
export interface WebhooksTable {
  id: string;
  workspace_id: string;
  url: string;
  /** JSON text: the subscribed event types. */
  events: string;
  /** The signing secret, sealed by core/features/webhooks/signing.ts (recoverable: deliveries sign with it). */
  secret: string;
  /** 0/1; a 410 answer sets it to 0. */
  active: number;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** One delivery attempt of one message to one receiver: the delivery log. */
export interface WebhookDeliveriesTable {
  id: string;
  /** Null for a receiver given per job (a crawl's webhook_url). */
  webhook_id: string | null;
  workspace_id: string;
  message_id: string;
  event: string;
  url: string;
  attempt: number;
  /** `delivered`, `retrying`, `failed` (given up) or `disabled` (410). */
  outcome: string;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  next_attempt_at: string | null;
  created_at: string;
}

// A type alias, not an interface: kysely's withTables needs the implicit index signature.
export type WebhookTables = {
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
};

export type WebhookDb = Kysely<Database & WebhookTables>;
