/**
 * The OpenAPI part of the watch routes: request bodies from the zod schemas that validate them,
 * the paths and their answers (shapes in watch-shapes.docs.ts) and the `watch.changed` event.
 */
import type { z } from 'zod';
import { dateTime, errorBody, jsonBody, pagedBody, paging, PAGING_ERROR, schemaRef, toJson } from '../../openapi-shapes.ts';
import { diffBodySchema, diffCounts, normalisedDescription, snapshotSchema, watchSchema } from './watch-shapes.docs.ts';

const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const common = { 401: errorBody('Invalid or missing API key') };
const unknown = { 404: errorBody('`Watch not found`: unknown id, or an id of another workspace') };

interface Schemas {
  create: z.ZodType;
  update: z.ZodType;
}

export function watchOpenApi(schemas: Schemas) {
  return {
    paths: {
      '/v1/watch': {
        post: {
          summary: 'Create a watch',
          description:
            'The first check is queued at once (snapshot `initial`); later ones run every ' +
            '`interval_minutes` on the shared schedule, each at a fixed per-watch offset so equal intervals do not ' +
            'fire together. Limits: self-hosted, `watch.maxPerWorkspace` (default 5000) per workspace and ' +
            "`watch.minIntervalMinutes` (default 1) as the interval floor; cloud mode, the plan's `maxWatches` " +
            '(default 20) and `minWatchIntervalMinutes` (default 60). Filters and conditions decide whether a ' +
            'check notifies; each snapshot records `notified` and `reason`. ' +
            normalisedDescription,
          requestBody: { required: true, content: { 'application/json': { schema: toJson(schemas.create) } } },
          responses: {
            201: jsonBody(schemaRef('Watch'), 'The watch'),
            400: errorBody(
              '`Missing required field: url`, `Invalid field interval_minutes: must be from 60 to ' +
                '10080 minutes`, `Invalid field ignore_patterns[0]: …`, `Invalid field include_selectors[0]: invalid ' +
                'CSS selector "…"`, `Invalid field conditions[0]: a condition needs below, above or change_percent`, ' +
                '…',
            ),
            ...common,
            409: errorBody('`Watch limit reached: at most 20 watches per workspace`'),
          },
        },
        get: {
          summary: 'List watches, newest first',
          parameters: [
            ...paging,
            { name: 'tag', in: 'query', schema: { type: 'string' }, description: 'Only watches with this tag.' },
            {
              name: 'search',
              in: 'query',
              schema: { type: 'string' },
              description: 'Only watches whose name or ' + 'URL contains this (case-insensitive).',
            },
          ],
          responses: {
            200: jsonBody(pagedBody('watches', schemaRef('Watch')), 'One slice'),
            400: errorBody(PAGING_ERROR),
            ...common,
          },
        },
      },
      '/v1/watch/{id}': {
        get: {
          summary: 'A watch with its snapshots, newest first',
          parameters: [idParam],
          responses: {
            200: jsonBody(
              {
                allOf: [
                  schemaRef('Watch'),
                  { type: 'object', properties: { snapshots: { type: 'array', items: schemaRef('WatchSnapshot') } } },
                ],
              },
              'The watch',
            ),
            ...common,
            ...unknown,
          },
        },
        patch: {
          summary: 'Change the given fields only',
          parameters: [idParam],
          requestBody: { required: true, content: { 'application/json': { schema: toJson(schemas.update) } } },
          responses: {
            200: jsonBody(schemaRef('Watch'), 'The watch as changed'),
            400: errorBody('Invalid field, or no field given'),
            ...common,
            ...unknown,
          },
        },
        delete: {
          summary: 'Delete a watch and all its snapshots',
          parameters: [idParam],
          responses: { 200: jsonBody({ type: 'object', properties: { success: { const: true } } }, 'Deleted'), ...common, ...unknown },
        },
      },
      '/v1/watch/{id}/check': {
        post: {
          summary: 'Check now, in the background',
          description:
            'Also checks a paused watch. The snapshot appears in `GET /v1/watch/{id}` when the check is ' +
            'done. Costs 1 credit in cloud mode, like a scheduled check.',
          parameters: [idParam],
          responses: { 202: jsonBody({ type: 'object', properties: { status: { const: 'checking' } } }, 'Queued'), ...common, ...unknown },
        },
      },
      '/v1/watch/{id}/diff': {
        get: {
          summary: 'Compare two snapshots of a watch',
          description:
            "Both snapshots' stored content compared under the watch's current noise rules. Defaults: " +
            '`to` the newest snapshot, `from` the one before it.',
          parameters: [
            idParam,
            { name: 'from', in: 'query', schema: { type: 'string' } },
            { name: 'to', in: 'query', schema: { type: 'string' } },
          ],
          responses: {
            200: jsonBody(
              {
                type: 'object',
                properties: {
                  watch_id: { type: 'string' },
                  from: schemaRef('WatchSnapshot'),
                  to: schemaRef('WatchSnapshot'),
                  diff: {
                    allOf: [
                      diffBodySchema,
                      {
                        type: 'object',
                        properties: {
                          parts: {
                            type: 'array',
                            items: {
                              type: 'object',
                              properties: { type: { enum: ['same', 'added', 'removed'] }, text: { type: 'string' } },
                            },
                            description: 'The whole text as runs of ' + 'same, removed and added lines.',
                          },
                          lines: {
                            type: 'array',
                            description:
                              "Line by line in the page's own text, for side-by-side and inline views (at most " +
                              '5000 lines): `same` and `changed` lines have `old` and `new`, `added` only `new`, `removed` ' +
                              'only `old`; changed lines have `words`, runs of same, removed and added words (for up to ' +
                              '500 lines of up to 2000 characters).',
                            items: {
                              type: 'object',
                              required: ['type'],
                              properties: {
                                type: { enum: ['same', 'added', 'removed', 'changed'] },
                                old: { type: 'string' },
                                new: { type: 'string' },
                                words: {
                                  type: 'array',
                                  items: {
                                    type: 'object',
                                    properties: { type: { enum: ['same', 'added', 'removed'] }, text: { type: 'string' } },
                                  },
                                },
                              },
                            },
                          },
                          excerpt: {
                            type: 'string',
                            description: 'A short word-level diff (`09:12 → 09:47`), at ' + 'most 500 characters.',
                          },
                        },
                      },
                    ],
                  },
                  ...diffCounts,
                },
              },
              'The comparison',
            ),
            400: errorBody('Fewer than two snapshots and no ids given'),
            ...common,
            404: errorBody('`Watch not found` or ' + '`Snapshot not found`'),
          },
        },
      },
    },
    webhooks: {
      'watch.changed': {
        post: {
          summary: 'watch.changed: a check notified',
          description:
            "POSTed to the watch's `webhook_url` as the flat `WatchChangedEvent` (no envelope: the " +
            "interface's payload, kept for the receivers built against it; registry events such as " +
            '`crawl.completed` use the `{type, timestamp, data}` envelope), signed per Standard Webhooks with ' +
            '`webhooks.signingSecret` (unsigned when none is configured), retried with backoff like every ' +
            "delivery; the address passes the SSRF guard. An https `notify` entry that is no chat platform's " +
            "webhook gets `WatchNotifyEvent` (the same with the message's parts added), signed and retried the " +
            "same way; a Slack, Discord, Teams or Telegram webhook gets that platform's own message (the page " +
            'title linked to the diff, the excerpt, the reason), and a `mailto:` target an e-mail (subject `Page ' +
            'changed: <watch name>`, plain text and HTML) through `[notify.smtp]`.',
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { anyOf: [schemaRef('WatchChangedEvent'), schemaRef('WatchNotifyEvent')] } } },
          },
          responses: { 200: { description: 'Any 2xx: delivered.' } },
        },
      },
    },
    schemas: {
      Watch: watchSchema,
      WatchSnapshot: snapshotSchema,
      WatchChangedEvent: {
        type: 'object',
        required: ['event', 'watch_id', 'url', 'summary', 'word_count_delta', 'checked_at'],
        properties: {
          event: { const: 'watch.changed' },
          watch_id: { type: 'string' },
          url: { type: 'string' },
          summary: diffCounts.summary,
          word_count_delta: diffCounts.word_count_delta,
          checked_at: dateTime('When the check ran.'),
          reason: {
            type: ['string', 'null'],
            description: 'Why the check notified: `changed`, `trigger_text "…" ' + 'appeared`, `.price 18.5 below 20`, `back in stock`, …',
          },
          excerpt: { type: ['string', 'null'], description: "A short word-level diff of the page's text " + '(`09:12 → 09:47`).' },
        },
      },
      WatchNotifyEvent: {
        allOf: [
          schemaRef('WatchChangedEvent'),
          {
            type: 'object',
            required: ['title', 'diff_url'],
            properties: {
              title: { type: 'string', description: "The page's title." },
              diff_url: {
                type: 'string',
                description:
                  "The dashboard showing this snapshot's diff: " +
                  '`<server.publicUrl>/dashboard?watch=<id>&to=<snapshot id>` (without `server.publicUrl`: ' +
                  '`http://<server.host>:<server.port>`, `localhost` for an any-address host).',
              },
            },
          },
        ],
      },
    },
  };
}
