/**
 * The OpenAPI part of the social routes: request bodies from the zod schemas that validate them,
 * the Monitor, Tweet and audience records and the `social.monitor.matched` event. Every operation
 * carries `x-beta: true` and says "Beta" in its summary and description.
 */
import type { z } from 'zod';
import { dateTime, errorBody, jsonBody, pagedBody, paging, PAGING_ERROR, schemaRef, toJson } from '../../openapi-shapes.ts';

interface Schemas {
  create: z.ZodType;
  update: z.ZodType;
  audience: z.ZodType;
}

const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const common = {
  401: errorBody('Invalid or missing API key'),
  503: errorBody('No social source is configured: set plugins.social.x.bearerToken (TRAWL_PLUGINS_SOCIAL_X_BEARER_TOKEN)'),
};
const unknown = { 404: errorBody('`Monitor not found`: unknown id, or an id of another workspace') };
const success = jsonBody({ type: 'object', required: ['success'], properties: { success: { const: true } } }, 'Done');
const beta = (op: Record<string, unknown>) => ({
  ...op,
  summary: `Beta: ${op.summary as string}`,
  'x-beta': true,
  description: `Beta. ${(op.description as string | undefined) ?? ''}`.trim(),
});

const coreFields = {
  id: { type: 'string', format: 'uuid' },
  kind: { enum: ['profile', 'search', 'list', 'replies'] },
  target: { type: 'string', description: 'Handle (without @), search query, list id or post id.' },
  name: { type: 'string' },
  interval_minutes: { type: 'integer' },
  webhook_url: { type: ['string', 'null'] },
  active: { type: 'boolean' },
};

const monitorSchema = {
  type: 'object',
  required: [
    ...Object.keys(coreFields),
    'include_retweets',
    'include_replies',
    'include_quotes',
    'min_faves',
    'keyword',
    'lang',
    'last_checked_at',
    'last_matched_at',
    'created_at',
  ],
  properties: {
    ...coreFields,
    include_retweets: { type: 'boolean' },
    include_replies: { type: 'boolean' },
    include_quotes: { type: 'boolean' },
    min_faves: { type: 'integer', description: 'Minimum likes to match.' },
    keyword: { type: ['string', 'null'] },
    lang: { type: ['string', 'null'] },
    last_checked_at: dateTime('Last finished check.', true),
    last_matched_at: dateTime('Last check with new matching posts.', true),
    last_error: {
      type: ['string', 'null'],
      description: 'Why the last check failed or waits (a rate limit ' + 'says when it runs again).',
    },
    created_at: dateTime('When the monitor was created.'),
  },
};

const tweetSchema = {
  type: 'object',
  required: [
    'id',
    'screen_name',
    'text',
    'url',
    'created_at',
    'favorite_count',
    'retweet_count',
    'reply_count',
    'lang',
    'is_retweet',
    'is_reply',
    'is_quote',
  ],
  properties: {
    id: { type: 'string' },
    screen_name: { type: 'string' },
    text: { type: 'string' },
    url: { type: 'string' },
    created_at: { type: 'string' },
    favorite_count: { type: 'integer' },
    retweet_count: { type: 'integer' },
    reply_count: { type: 'integer' },
    lang: { type: 'string' },
    is_retweet: { type: 'boolean' },
    is_reply: { type: 'boolean' },
    is_quote: { type: 'boolean' },
  },
};

const audienceUser = {
  type: 'object',
  required: ['id', 'screen_name', 'name', 'followers', 'description', 'url'],
  properties: {
    id: { type: 'string' },
    screen_name: { type: 'string' },
    name: { type: 'string' },
    followers: { type: 'integer' },
    description: { type: 'string' },
    url: { type: 'string' },
  },
};

export function socialOpenApi(schemas: Schemas) {
  return {
    paths: {
      '/v1/social/monitors': {
        post: beta({
          summary: 'Create a social monitor',
          description:
            'The first check runs at once and only sets the cursor (no flood of older posts); later ' +
            'checks run every `interval_minutes` on the shared schedule and fire `social.monitor.matched` for new ' +
            'posts passing every filter. Each check costs the plan rate (Starter 5, Growth 3, Pro 2, Scale 1). At ' +
            'most 50 per workspace.',
          requestBody: { required: true, content: { 'application/json': { schema: toJson(schemas.create) } } },
          responses: {
            201: jsonBody({ type: 'object', required: Object.keys(coreFields), properties: coreFields }, 'The core fields of the monitor'),
            400: errorBody('Missing or invalid field'),
            ...common,
            409: errorBody('`Monitor limit reached: at most ' + '50 social monitors per workspace`'),
          },
        }),
        get: beta({
          summary: 'List social monitors, newest first',
          parameters: paging,
          responses: {
            200: jsonBody(pagedBody('monitors', schemaRef('SocialMonitor')), 'One slice'),
            400: errorBody(PAGING_ERROR),
            ...common,
          },
        }),
      },
      '/v1/social/monitors/{id}': {
        get: beta({
          summary: 'A social monitor',
          parameters: [idParam],
          responses: { 200: jsonBody(schemaRef('SocialMonitor'), 'The monitor'), ...common, ...unknown },
        }),
        patch: beta({
          summary: 'Change the given fields of a monitor',
          parameters: [idParam],
          requestBody: { required: true, content: { 'application/json': { schema: toJson(schemas.update) } } },
          responses: { 200: success, 400: errorBody('Invalid field, or no field given'), ...common, ...unknown },
        }),
        delete: beta({ summary: 'Delete a social monitor', parameters: [idParam], responses: { 200: success, ...common, ...unknown } }),
      },
      '/v1/social/monitors/{id}/check': {
        post: beta({
          summary: 'Check a monitor now, in the background',
          parameters: [idParam],
          description: 'Also checks a paused monitor; costs the plan rate like a scheduled check.',
          responses: { 202: jsonBody({ type: 'object', properties: { status: { const: 'checking' } } }, 'Queued'), ...common, ...unknown },
        }),
      },
      '/v1/social/audience': {
        post: beta({
          summary: 'Export followers or following, page by page',
          description:
            'Give `handle` (resolved once, unbilled) or `user_id`, not both. Repeat with the returned ' +
            '`user_id` and `next_cursor` until `next_cursor` is null. Each page (up to 1000 users) costs the plan ' +
            'rate; `max_pages` pages are reserved up front and the pages not fetched are given back. When a page ' +
            'after the first fails, the answer holds the pages fetched before it (paid for) with `error` saying ' +
            'why, and `next_cursor` resumes at the page that failed; a failed first page is the error, refunded.',
          requestBody: { required: true, content: { 'application/json': { schema: toJson(schemas.audience) } } },
          responses: {
            200: jsonBody(
              {
                type: 'object',
                required: ['user_id', 'direction', 'count', 'users', 'next_cursor', 'pages_fetched', 'credits_charged'],
                properties: {
                  user_id: { type: 'string' },
                  direction: { enum: ['followers', 'following'] },
                  count: { type: 'integer' },
                  users: { type: 'array', items: schemaRef('SocialAudienceUser') },
                  next_cursor: { type: ['string', 'null'], description: 'Opaque; null when the ' + 'audience is fully walked.' },
                  pages_fetched: { type: 'integer' },
                  credits_charged: { type: 'integer', description: 'Plan rate per page fetched; ' + '0 self-hosted.' },
                  error: {
                    type: 'string',
                    description:
                      'Only when a page after the first failed: why the walk ' + 'stopped early (`next_cursor` retries that page).',
                  },
                },
              },
              'The users of the pages fetched',
            ),
            400: errorBody('Missing handle or user_id, both sent, invalid field or cursor'),
            ...common,
            404: errorBody('The account was not found'),
            429: errorBody("The social source's rate limit is reached; retry after the time it says"),
          },
        }),
      },
    },
    webhooks: {
      'social.monitor.matched': {
        post: {
          summary: 'Beta: social.monitor.matched: a check found new matching posts',
          'x-beta': true,
          description:
            "POSTed to the monitor's `webhook_url` as this flat JSON object (the interface's payload, " +
            'kept for the receivers built against it; registry events such as `crawl.completed` use the `{type, ' +
            'timestamp, data}` envelope), signed per Standard Webhooks like every delivery. Discord, Slack, ' +
            'Microsoft Teams workflow and Telegram sendMessage URLs instead receive native messages (embeds, ' +
            "blocks, an Adaptive Card, HTML text) within each platform's limits, several when needed.",
          requestBody: { required: true, content: { 'application/json': { schema: schemaRef('SocialMonitorMatchedEvent') } } },
          responses: { 200: { description: 'Any 2xx: delivered.' } },
        },
      },
    },
    schemas: {
      SocialMonitor: monitorSchema,
      SocialTweet: tweetSchema,
      SocialAudienceUser: audienceUser,
      SocialMonitorMatchedEvent: {
        type: 'object',
        required: ['event', 'monitor_id', 'kind', 'target', 'new_count', 'tweets', 'checked_at'],
        properties: {
          event: { const: 'social.monitor.matched' },
          monitor_id: { type: 'string' },
          kind: coreFields.kind,
          target: { type: 'string' },
          new_count: { type: 'integer' },
          tweets: { type: 'array', items: schemaRef('SocialTweet') },
          checked_at: dateTime('When the check ran.'),
        },
      },
    },
  };
}
