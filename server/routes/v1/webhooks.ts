/**
 * The webhook registry over HTTP: `POST/GET /v1/webhooks`, `GET/PATCH/DELETE /v1/webhooks/{id}`
 * and the delivery log `GET /v1/webhooks/{id}/deliveries`, all scoped to the caller's workspace
 * (another workspace's id answers 404 like an unknown one). The signing secret is in the 201 answer
 * to POST and nowhere else.
 */
import { z } from 'zod';
import { badRequest, TrawlError } from '../../../core/errors.ts';
import { WebhookTokens, webhooksFeature } from '../../../core/features/webhooks/index.ts';
import { WEBHOOK_EVENTS, type Webhook, type WebhookDelivery, type WebhookStore } from '../../../core/features/webhooks/store.ts';
import type { TrawlConfig } from '../../../core/config-schema.ts';
import { receiverRefusal, receiverUrlSchema } from '../../../core/net/receiver.ts';
import { pagedQuery, pageFrom, pageOf } from '../../pagination.ts';
import { dateTime, errorBody, jsonBody, pagedBody, paging, PAGING_ERROR, schemaRef, toJson } from '../../openapi-shapes.ts';
import { defineRoutes, route, type Route } from '../../route.ts';

const eventList = z.array(z.enum(WEBHOOK_EVENTS)).min(1, 'must list at least one event').max(WEBHOOK_EVENTS.length * 4);

export const createWebhookSchema = z.strictObject({
  url: receiverUrlSchema.describe('Receiver address, written out in full (http:// or https://), no control characters; refused at once when the SSRF guard forbids its address. Deliveries are POSTs; redirects are not followed.'),
  events: eventList.describe('Subscriptions; duplicates are ignored.'),
});

export const updateWebhookSchema = z.strictObject({
  url: receiverUrlSchema.optional(),
  events: eventList.optional(),
  active: z.boolean().optional().describe('false pauses deliveries; true resumes them, also after a 410 disabled the webhook.'),
}).refine((p) => p.url !== undefined || p.events !== undefined || p.active !== undefined, 'Request body must set url, events or active');

const present = (w: Webhook) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  active: w.active,
  disabled_reason: w.disabledReason,
  created_at: w.createdAt,
  updated_at: w.updatedAt,
});

const presentDelivery = (d: WebhookDelivery) => ({
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

const notFound = () => new TrawlError('not_found', 'Webhook not found');

function webhookRoutes(store: WebhookStore, maxPerWorkspace: number, fetch: Readonly<TrawlConfig['fetch']>) {
  /** The SSRF guard at registration: a forbidden receiver is a 400 now, not failed deliveries later. */
  const allowed = async (url: string | undefined) => {
    const refusal = url === undefined ? null : await receiverRefusal(url, fetch);
    if (refusal) throw badRequest(`Invalid field url: ${refusal}`);
  };
  const found = async (workspace: string, id: string) => {
    const webhook = await store.get(workspace, id);
    if (!webhook) throw notFound();
    return webhook;
  };

  return [
    route({
      method: 'POST', path: '/v1/webhooks', body: 'manual', input: createWebhookSchema,
      async handle({ body, workspace }) {
        await allowed(body.url);
        if ((await store.count(workspace)) >= maxPerWorkspace) {
          throw new TrawlError('conflict', `Webhook limit reached: at most ${maxPerWorkspace} per workspace`);
        }
        const { webhook, secret } = await store.create(workspace, body);
        return Response.json({ ...present(webhook), secret }, { status: 201 });
      },
    }),
    route({
      method: 'GET', path: '/v1/webhooks', query: pagedQuery(),
      async handle({ request, workspace, query }) {
        const page = pageFrom(query);
        const { items, total } = await store.list(workspace, page);
        return pageOf('webhooks', items.map(present), total, page, request);
      },
    }),
    {
      method: 'GET', path: '/v1/webhooks/:id',
      handle: async ({ params, workspace }) => present(await found(workspace, params.id!)),
    },
    route({
      method: 'PATCH', path: '/v1/webhooks/:id', body: 'manual', input: updateWebhookSchema,
      async handle({ params, body: patch, workspace }) {
        await allowed(patch.url);
        const updated = await store.update(workspace, params.id!, patch);
        if (!updated) throw notFound();
        return present(updated);
      },
    }),
    {
      method: 'DELETE', path: '/v1/webhooks/:id',
      async handle({ params, workspace }) {
        if (!(await store.delete(workspace, params.id!))) throw notFound();
        // Every /v1 delete answers `{success: true}` (the interface's answer for monitor deletes).
        return { success: true };
      },
    },
    route({
      method: 'GET', path: '/v1/webhooks/:id/deliveries', query: pagedQuery(),
      async handle({ params, request, workspace, query }) {
        const page = pageFrom(query);
        await found(workspace, params.id!);
        const { items, total } = await store.deliveries(workspace, params.id!, page);
        return pageOf('deliveries', items.map(presentDelivery), total, page, request);
      },
    }),
  ] satisfies Route[];
}

// ---- OpenAPI: the routes above, the registry's records, and every event payload. ----

const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const common = { 401: errorBody('Invalid or missing API key') };
const unknown = { 404: errorBody('`Webhook not found`: unknown id, or an id of another workspace') };

const webhookSchema = {
  type: 'object',
  required: ['id', 'url', 'events', 'active', 'disabled_reason', 'created_at', 'updated_at'],
  properties: {
    id: { type: 'string' },
    url: { type: 'string', format: 'uri' },
    events: { type: 'array', items: { type: 'string', enum: [...WEBHOOK_EVENTS] } },
    active: { type: 'boolean', description: 'false after a 410 answer or `active: false`; no deliveries then.' },
    disabled_reason: { type: ['string', 'null'], description: '`receiver answered HTTP 410 Gone` or `disabled by request`.' },
    created_at: dateTime('Creation time.'),
    updated_at: dateTime('Last change, including being disabled.'),
  },
};

const deliverySchema = {
  type: 'object',
  description: 'One attempt to deliver one message.',
  properties: {
    id: { type: 'string' },
    message_id: { type: 'string', description: 'The `webhook-id` header: the same on every attempt of a message.' },
    event: { type: 'string' },
    url: { type: 'string' },
    attempt: { type: 'integer', description: '1 for the first try.' },
    outcome: { type: 'string', enum: ['delivered', 'retrying', 'failed', 'disabled'], description: '`failed`: attempts used up; `disabled`: the receiver answered 410.' },
    status_code: { type: ['integer', 'null'], description: 'The receiver\'s HTTP status; null when no answer came (refused, timeout, forbidden address).' },
    error: { type: ['string', 'null'], description: 'Why the attempt failed, e.g. `receiver answered HTTP 500`, `connection refused`.' },
    duration_ms: { type: 'integer' },
    next_attempt_at: dateTime('When the next attempt is due (outcome `retrying`).', true),
    created_at: dateTime('When the attempt finished.'),
  },
};

const runData = (kind: 'crawl' | 'batch') => ({
  type: 'object',
  description: `The ${kind} as \`GET /v1/${kind}/{id}\` summarises it.`,
  properties: {
    id: { type: 'string' },
    status: { type: 'string', enum: kind === 'crawl' ? ['completed', 'failed'] : ['completed'] },
    ...(kind === 'crawl' ? { url: { type: 'string', description: 'Start URL.' } } : {}),
    total: { type: 'integer', description: 'Pages admitted.' },
    completed: { type: 'integer', description: 'Pages scraped.' },
    failed: { type: 'integer', description: 'Pages that failed (reasons in the results).' },
    created_at: dateTime('Start.'),
    completed_at: dateTime('End.', true),
    ...(kind === 'crawl'
      ? { error: { type: ['string', 'null'], description: 'Why the crawl failed.' }, retry_of: { type: 'string', description: 'Present on a retry: the original crawl id.' } }
      : {}),
  },
});

const envelope = (type: string, data: string) => ({
  type: 'object',
  required: ['type', 'timestamp', 'data'],
  properties: { type: { const: type }, timestamp: dateTime('When the event happened.'), data: schemaRef(data) },
});

const DELIVERY_RULES =
  'POSTed as JSON to every active registration subscribed to the event (and, for crawls, to the crawl\'s `webhook_url`). ' +
  'The body is the Standard Webhooks envelope `{type, timestamp, data}`. Decision: `watch.changed` and `social.monitor.matched` are instead the flat ' +
  '`{event, …}` objects the interface defines for them, sent to one watch\'s or monitor\'s own `webhook_url`; each family keeps the shape its receivers are built against ' +
  '(Standard Webhooks libraries for the registry, the documented flat payloads for watches and monitors). ' +
  'Signed per Standard Webhooks: `webhook-id` (message id, the same on every retry; deduplicate on it), `webhook-timestamp` (Unix seconds), ' +
  '`webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with the base64 part of the registration\'s `whsec_` secret. ' +
  'Deliveries to a crawl\'s `webhook_url` are signed with the server\'s `webhooks.signingSecret`, or sent unsigned when none is configured. ' +
  'Any 2xx accepts; redirects are not followed; other answers, timeouts (`webhooks.timeoutMs`) and network errors are retried up to ' +
  '`webhooks.maxAttempts` times with exponential backoff and jitter; 410 Gone disables the registration at once (a crawl\'s `webhook_url` is just not retried). ' +
  'Outbound addresses pass the SSRF guard. Every attempt to a registration is in its delivery log.';

export const eventDoc = (type: string, data: string, when: string) => ({
  post: {
    summary: `${type}: ${when}`,
    description: DELIVERY_RULES,
    requestBody: { required: true, content: { 'application/json': { schema: envelope(type, data) } } },
    responses: { 200: { description: 'Any 2xx: delivered.' }, 410: { description: 'Disables the registration.' } },
  },
});

const webhooksOpenApi = {
  paths: {
    '/v1/webhooks': {
      post: {
        summary: 'Register a webhook',
        description: `At most \`webhooks.maxPerWorkspace\` (default 50) per workspace. The answer carries \`secret\` (\`whsec_<base64>\`) — the only time it is shown; ` +
          'the server keeps it (AES-256-GCM encrypted when `webhooks.secretKey` is set) because every delivery is signed with it.',
        requestBody: { required: true, content: { 'application/json': { schema: toJson(createWebhookSchema) } } },
        responses: {
          201: jsonBody({ allOf: [schemaRef('Webhook'), { type: 'object', required: ['secret'], properties: { secret: { type: 'string' } } }] }, 'Registered'),
          400: errorBody('Invalid url or events'), ...common, 409: errorBody('`Webhook limit reached: at most N per workspace`'),
        },
      },
      get: { summary: 'List webhooks, newest first', parameters: paging, responses: { 200: jsonBody(pagedBody('webhooks', schemaRef('Webhook')), 'One slice'), 400: errorBody(PAGING_ERROR), ...common } },
    },
    '/v1/webhooks/{id}': {
      get: { summary: 'Get a webhook', parameters: [idParam], responses: { 200: jsonBody(schemaRef('Webhook'), 'The webhook'), ...common, ...unknown } },
      patch: {
        summary: 'Update url, events or active',
        parameters: [idParam],
        requestBody: { required: true, content: { 'application/json': { schema: toJson(updateWebhookSchema) } } },
        responses: { 200: jsonBody(schemaRef('Webhook'), 'Updated'), 400: errorBody('Invalid field, or none of url, events, active given'), ...common, ...unknown },
      },
      delete: {
        summary: 'Delete a webhook and its delivery log; queued deliveries are dropped',
        parameters: [idParam],
        description: 'Answers `{success: true}`, as every /v1 delete does (watches, social monitors); until this release it answered `{id, deleted: true}`.',
        responses: { 200: jsonBody({ type: 'object', required: ['success'], properties: { success: { const: true } } }, 'Deleted'), ...common, ...unknown },
      },
    },
    '/v1/webhooks/{id}/deliveries': {
      get: { summary: 'Delivery log, newest attempt first', parameters: [idParam, ...paging], responses: { 200: jsonBody(pagedBody('deliveries', schemaRef('WebhookDelivery')), 'One slice'), 400: errorBody(PAGING_ERROR), ...common, ...unknown } },
    },
  },
  webhooks: {
    'crawl.completed': eventDoc('crawl.completed', 'CrawlEvent', 'a crawl finished'),
    'crawl.failed': eventDoc('crawl.failed', 'CrawlEvent', 'a crawl failed'),
    'batch.completed': eventDoc('batch.completed', 'BatchEvent', 'a batch finished'),
  },
  schemas: { Webhook: webhookSchema, WebhookDelivery: deliverySchema, CrawlEvent: runData('crawl'), BatchEvent: runData('batch') },
};

export const webhooksModule = defineRoutes({
  name: 'webhooks',
  needs: { store: WebhookTokens.Store, settings: webhooksFeature.settingsToken },
  routes: ({ store, settings }, env) => webhookRoutes(store, settings.maxPerWorkspace, env.config.fetch),
  openapi: () => webhooksOpenApi,
});
