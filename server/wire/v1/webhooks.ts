/**
 * The /v1 webhook registry's wire: the POST and PATCH bodies, and the presenters of a registration
 * and of one delivery attempt.
 */
import { z } from 'zod';
import { WEBHOOK_EVENTS, type Webhook, type WebhookDelivery } from '../../../core/features/webhooks/store.ts';
import { receiverUrlSchema } from '../../../core/net/receiver.ts';

const eventList = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1, 'must list at least one event')
  .max(WEBHOOK_EVENTS.length * 4);

export const createWebhookSchema = z.strictObject({
  url: receiverUrlSchema.describe(
    'Receiver address, written out in full (http:// or https://), no control ' +
      'characters; refused at once when the SSRF guard forbids its address. Deliveries are POSTs; redirects are not ' +
      'followed.',
  ),
  events: eventList.describe('Subscriptions; duplicates are ignored.'),
});

export const updateWebhookSchema = z
  .strictObject({
    url: receiverUrlSchema.optional(),
    events: eventList.optional(),
    active: z.boolean().optional().describe('false pauses deliveries; true resumes them, also after a 410 disabled the webhook.'),
  })
  .refine((p) => p.url !== undefined || p.events !== undefined || p.active !== undefined, 'Request body must set url, events or active');

export const present = (w: Webhook) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  active: w.active,
  disabled_reason: w.disabledReason,
  created_at: w.createdAt,
  updated_at: w.updatedAt,
});

export const presentDelivery = (d: WebhookDelivery) => ({
  id: d.id,
  message_id: d.messageId,
  event: d.event,
  url: d.url,
  attempt: d.attempt,
  outcome: d.outcome,
  status_code: d.statusCode,
  error: d.error,
  duration_ms: d.durationMs,
  next_attempt_at: d.nextAttemptAt,
  created_at: d.createdAt,
});
