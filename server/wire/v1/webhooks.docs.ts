/**
 * The OpenAPI of the webhook registry: its routes, the Webhook and WebhookDelivery records, the
 * delivery rules every event shares and the run events' payloads.
 */
import { createWebhookSchema, updateWebhookSchema } from './webhooks.ts';
import { WEBHOOK_EVENTS } from '../../../core/features/webhooks/store.ts';
import { dateTime, errorBody, jsonBody, pagedBody, paging, PAGING_ERROR, schemaRef, toJson } from '../../openapi-shapes.ts';

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
    disabled_reason: { type: ['string', 'null'], description: '`receiver answered HTTP 410 Gone` or ' + '`disabled by request`.' },
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
    outcome: {
      type: 'string',
      enum: ['delivered', 'retrying', 'failed', 'disabled'],
      description: '`failed`: attempts used up; ' + '`disabled`: the receiver answered 410.',
    },
    status_code: {
      type: ['integer', 'null'],
      description: "The receiver's HTTP status; null when no answer came " + '(refused, timeout, forbidden address).',
    },
    error: {
      type: ['string', 'null'],
      description: 'Why the attempt failed, e.g. `receiver answered HTTP ' + '500`, `connection refused`.',
    },
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
      ? {
          error: { type: ['string', 'null'], description: 'Why the crawl failed.' },
          retry_of: { type: 'string', description: 'Present on a retry: the ' + 'original crawl id.' },
        }
      : {}),
  },
});

const envelope = (type: string, data: string) => ({
  type: 'object',
  required: ['type', 'timestamp', 'data'],
  properties: { type: { const: type }, timestamp: dateTime('When the event happened.'), data: schemaRef(data) },
});

const DELIVERY_RULES =
  "POSTed as JSON to every active registration subscribed to the event (and, for crawls, to the crawl's " +
  '`webhook_url`). The body is the Standard Webhooks envelope `{type, timestamp, data}`. Decision: `watch.changed` ' +
  'and `social.monitor.matched` are instead the flat `{event, …}` objects the interface defines for them, sent to ' +
  "one watch's or monitor's own `webhook_url`; each family keeps the shape its receivers are built against " +
  '(Standard Webhooks libraries for the registry, the documented flat payloads for watches and monitors). Signed ' +
  'per Standard Webhooks: `webhook-id` (message id, the same on every retry; deduplicate on it), ' +
  '`webhook-timestamp` (Unix seconds), `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` ' +
  "keyed with the base64 part of the registration's `whsec_` secret. Deliveries to a crawl's `webhook_url` are " +
  "signed with the server's `webhooks.signingSecret`, or sent unsigned when none is configured. Any 2xx accepts; " +
  'redirects are not followed; other answers, timeouts (`webhooks.timeoutMs`) and network errors are retried up to ' +
  '`webhooks.maxAttempts` times with exponential backoff and jitter; 410 Gone disables the registration at once (a ' +
  "crawl's `webhook_url` is just not retried). Outbound addresses pass the SSRF guard. Every attempt to a " +
  'registration is in its delivery log.';

export const eventDoc = (type: string, data: string, when: string) => ({
  post: {
    summary: `${type}: ${when}`,
    description: DELIVERY_RULES,
    requestBody: { required: true, content: { 'application/json': { schema: envelope(type, data) } } },
    responses: { 200: { description: 'Any 2xx: delivered.' }, 410: { description: 'Disables the registration.' } },
  },
});

export const webhooksOpenApi = {
  paths: {
    '/v1/webhooks': {
      post: {
        summary: 'Register a webhook',
        description:
          'At most `webhooks.maxPerWorkspace` (default 50) per workspace. The answer carries `secret` ' +
          '(`whsec_<base64>`) — the only time it is shown; the server keeps it (AES-256-GCM encrypted when ' +
          '`webhooks.secretKey` is set) because every delivery is signed with it.',
        requestBody: { required: true, content: { 'application/json': { schema: toJson(createWebhookSchema) } } },
        responses: {
          201: jsonBody(
            { allOf: [schemaRef('Webhook'), { type: 'object', required: ['secret'], properties: { secret: { type: 'string' } } }] },
            'Registered',
          ),
          400: errorBody('Invalid url or events'),
          ...common,
          409: errorBody('`Webhook limit reached: at ' + 'most N per workspace`'),
        },
      },
      get: {
        summary: 'List webhooks, newest first',
        parameters: paging,
        responses: { 200: jsonBody(pagedBody('webhooks', schemaRef('Webhook')), 'One slice'), 400: errorBody(PAGING_ERROR), ...common },
      },
    },
    '/v1/webhooks/{id}': {
      get: {
        summary: 'Get a webhook',
        parameters: [idParam],
        responses: { 200: jsonBody(schemaRef('Webhook'), 'The webhook'), ...common, ...unknown },
      },
      patch: {
        summary: 'Update url, events or active',
        parameters: [idParam],
        requestBody: { required: true, content: { 'application/json': { schema: toJson(updateWebhookSchema) } } },
        responses: {
          200: jsonBody(schemaRef('Webhook'), 'Updated'),
          400: errorBody('Invalid field, or none of ' + 'url, events, active given'),
          ...common,
          ...unknown,
        },
      },
      delete: {
        summary: 'Delete a webhook and its delivery log; queued deliveries are dropped',
        parameters: [idParam],
        description:
          'Answers `{success: true}`, as every /v1 delete does (watches, social monitors); until this ' +
          'release it answered `{id, deleted: true}`.',
        responses: {
          200: jsonBody({ type: 'object', required: ['success'], properties: { success: { const: true } } }, 'Deleted'),
          ...common,
          ...unknown,
        },
      },
    },
    '/v1/webhooks/{id}/deliveries': {
      get: {
        summary: 'Delivery log, newest attempt first',
        parameters: [idParam, ...paging],
        responses: {
          200: jsonBody(pagedBody('deliveries', schemaRef('WebhookDelivery')), 'One slice'),
          400: errorBody(PAGING_ERROR),
          ...common,
          ...unknown,
        },
      },
    },
  },
  webhooks: {
    'crawl.completed': eventDoc('crawl.completed', 'CrawlEvent', 'a crawl finished'),
    'crawl.failed': eventDoc('crawl.failed', 'CrawlEvent', 'a crawl failed'),
    'batch.completed': eventDoc('batch.completed', 'BatchEvent', 'a batch finished'),
  },
  schemas: { Webhook: webhookSchema, WebhookDelivery: deliverySchema, CrawlEvent: runData('crawl'), BatchEvent: runData('batch') },
};
