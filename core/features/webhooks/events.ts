/**
 * The EventBus (core/services.ts): turns one outbound event into one `webhook.delivery` job per
 * receiver — every active registration of the workspace subscribed to the event, plus the event's
 * own `url` (a crawl's `webhook_url`). The body is rendered once here, so every receiver and every
 * retry gets byte-identical JSON under the same `webhook-id`, which receivers use to deduplicate.
 * A delivery with an `origin` reports each attempt's outcome to the listener its feature registered.
 */
import { z } from 'zod';
import type { DeliveryReport, EventBus, JobQueue, JobSpec } from '../../services.ts';
import type { WebhookStore } from './store.ts';

export const DELIVERY_KIND = 'webhook.delivery';

/** What a delivery job carries; validated when claimed because rows outlive code versions. */
export const deliveryPayloadSchema = z
  .object({
    messageId: z.string().min(1),
    event: z.string().min(1),
    /** The exact JSON text to POST. */
    body: z.string(),
    /** A registration, or else a one-off receiver `url`. */
    webhookId: z.string().min(1).optional(),
    url: z.string().min(1).optional(),
    /** 1 for the first try; the delivery handler schedules the next one itself. */
    attempt: z.number().int().min(1),
    /** A direct delivery's own headers and signature scheme (Standard Webhooks otherwise). */
    headers: z.record(z.string(), z.string()).optional(),
    scheme: z.enum(['standard', 'firecrawl', 'none']).default('standard'),
    /** Whom to tell each attempt's outcome (`EventBus.onOutcome`). */
    origin: z.object({ kind: z.string().min(1), subject: z.string().min(1) }).optional(),
  })
  .refine((p) => (p.webhookId === undefined) !== (p.url === undefined), 'exactly one of webhookId and url');

export type DeliveryPayload = z.output<typeof deliveryPayloadSchema>;

/** The envelope every receiver gets: `{type, timestamp, data}` as Standard Webhooks suggests. */
export function eventBody(type: string, data: Record<string, unknown>, now = new Date()): string {
  return JSON.stringify({ type, timestamp: now.toISOString(), data });
}

export function newMessageId(): string {
  return `msg_${crypto.randomUUID().replaceAll('-', '')}`;
}

type OutcomeListener = (report: DeliveryReport) => Promise<void>;

/** The outcome listeners by origin kind: features register, the delivery handler reports. */
export function createOutcomeListeners() {
  const listeners = new Map<string, OutcomeListener>();
  return {
    on(kind: string, listener: OutcomeListener) {
      listeners.set(kind, listener);
    },
    async report(report: DeliveryReport) {
      await listeners.get(report.origin.kind)?.(report);
    },
  };
}

export type OutcomeListeners = ReturnType<typeof createOutcomeListeners>;

export interface EventBusDeps {
  store: WebhookStore;
  /** Resolved on first emit: the queue is built after the bus is registered. */
  jobs: () => JobQueue;
  outcomes: OutcomeListeners;
}

export function createEventBus(deps: EventBusDeps): EventBus {
  return {
    async emit(event) {
      const registrations = await deps.store.subscribers(event.workspace, event.type);
      const base = {
        messageId: newMessageId(),
        event: event.type,
        body: event.bare ? JSON.stringify(event.data) : eventBody(event.type, event.data),
        attempt: 1,
        scheme: 'standard' as const,
      };
      const payloads: DeliveryPayload[] = registrations.map((w) => ({ ...base, webhookId: w.id }));
      if (event.url) payloads.push({ ...base, url: event.url, ...(event.origin ? { origin: event.origin } : {}) });
      if (payloads.length === 0) return;
      const specs: JobSpec[] = payloads.map((payload) => ({ kind: DELIVERY_KIND, workspace: event.workspace, payload }));
      await deps.jobs().enqueueMany(specs);
    },
    async deliver(delivery) {
      const payload: DeliveryPayload = {
        messageId: newMessageId(),
        event: delivery.event,
        body: delivery.body,
        url: delivery.url,
        attempt: 1,
        headers: delivery.headers,
        scheme: delivery.signature,
        ...(delivery.origin ? { origin: delivery.origin } : {}),
      };
      await deps.jobs().enqueue({ kind: DELIVERY_KIND, workspace: delivery.workspace, payload });
    },
    onOutcome: deps.outcomes.on,
  };
}
