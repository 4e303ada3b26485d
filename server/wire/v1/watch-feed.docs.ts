/** The OpenAPI of the watch feed: the feed token's routes and the Atom feed itself. */
import { dateTime, errorBody, jsonBody } from '../../openapi-shapes.ts';
import { FEED_ENTRIES, FEED_PATH } from './watch-feed.ts';

const tokenAnswer = {
  type: 'object',
  required: ['active', 'created_at'],
  properties: { active: { type: 'boolean' }, created_at: dateTime('When the current token was created.', true) },
};

export const watchFeedOpenApi = {
  paths: {
    '/v1/watch/feed-token': {
      post: {
        summary: "Create (or rotate) the workspace's feed token",
        description:
          'One token per workspace: a new one replaces the old, whose feed URL stops working at once. ' +
          'The token is shown only in this answer (only its sha256 is stored).',
        responses: {
          201: jsonBody(
            {
              type: 'object',
              required: ['token', 'feed_url', 'created_at'],
              properties: {
                token: { type: 'string', description: '`trawl_feed_…`' },
                feed_url: { type: 'string', description: "The Atom feed's address " + 'with the token in its query.' },
                created_at: dateTime('Creation time.'),
              },
            },
            'The new token',
          ),
          401: errorBody('Invalid or missing API key'),
        },
      },
      get: {
        summary: 'Whether the workspace has a feed token',
        responses: { 200: jsonBody(tokenAnswer, "The token's state (never the token)"), 401: errorBody('Invalid or missing API key') },
      },
      delete: {
        summary: 'Revoke the feed token',
        responses: {
          200: jsonBody({ type: 'object', properties: { success: { const: true } } }, 'Revoked: the feed answers 401'),
          401: errorBody('Invalid or missing API key'),
          404: errorBody('`No feed token to revoke`'),
        },
      },
    },
    [FEED_PATH]: {
      get: {
        summary: "Atom feed of the workspace's notified changes",
        description:
          'No API key: the feed token in the query is the only credential (feed readers cannot send ' +
          `headers). The newest ${FEED_ENTRIES} notified changes, newest first; each entry has the watch's name as ` +
          'title, the reason and what changed as summary, a link to the change in the dashboard and a related link ' +
          'to the page.',
        security: [],
        parameters: [
          { name: 'token', in: 'query', required: true, schema: { type: 'string' }, description: 'From `POST /v1/watch/feed-token`.' },
        ],
        responses: {
          200: { description: 'An Atom 1.0 document (RFC 4287).', content: { 'application/atom+xml': { schema: { type: 'string' } } } },
          401: errorBody('`Invalid or revoked feed token`'),
        },
      },
    },
  },
};
