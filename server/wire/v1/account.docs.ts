/** The OpenAPI of a workspace's own account and keys: /v1/account and /v1/keys, and the WorkspaceKey record. */
import { renameKeySchema } from './account.ts';
import { MAX_WORKSPACE_KEYS } from '../../../core/features/accounts/accounts.ts';
import { KEY_ROLES } from '../../../core/storage/workspaces.ts';
import { dateTime, errorBody, jsonBody, paging, schemaRef, toJson } from '../../openapi-shapes.ts';
import { createKeySchema } from '../admin/workspaces.ts';

const roleDoc = "`admin`: manages the workspace's keys and sees its billing; `member`: calls the API only.";
const keySchema = {
  type: 'object',
  required: ['id', 'name', 'role', 'suffix', 'created_at', 'revoked_at', 'current'],
  properties: {
    id: { type: 'string' },
    name: { type: ['string', 'null'] },
    role: { enum: [...KEY_ROLES], description: roleDoc },
    suffix: {
      type: ['string', 'null'],
      description: "The key's last four characters; null for the key set by a " + "self-hosted server's configuration.",
    },
    created_at: dateTime('Creation time'),
    revoked_at: dateTime('When it was revoked', true),
    current: { type: 'boolean', description: 'The key this request was made with.' },
  },
};
const refusals = { 401: errorBody('Invalid or missing API key'), 403: errorBody('A member key: key ' + 'management needs an admin key') };
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const nullable = (type: string, description: string) => ({ type: [type, 'null'], description });

export const accountOpenApi = {
  paths: {
    '/v1/account': {
      get: {
        summary: 'The workspace, its plan and balance, and the calling key',
        description:
          'Any key may read it; `balance` is billing, shown to admin keys only (null for a member key). ' +
          'On a self-hosted server plan, status, balance and rate limit are null.',
        responses: {
          200: jsonBody(
            {
              type: 'object',
              properties: {
                workspace: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
                mode: { enum: ['cloud', 'self-hosted'] },
                plan: nullable('string', 'The plan (cloud mode).'),
                status: nullable('string', '`active` or `lapsed` (cloud mode).'),
                balance: nullable('integer', 'Credits left; admin keys only.'),
                rate_limit_per_minute: nullable('integer', 'The request limit in force (cloud mode).'),
                key: {
                  type: ['object', 'null'],
                  description: 'The calling key (null on a self-hosted server ' + 'called without one).',
                  properties: { id: { type: 'string' }, role: { enum: [...KEY_ROLES], description: roleDoc } },
                },
                role: { enum: [...KEY_ROLES], description: `What the caller may do: ${roleDoc}` },
              },
            },
            'The account',
          ),
          401: refusals[401],
        },
      },
    },
    '/v1/keys': {
      get: {
        summary: "The workspace's working API keys, oldest first (never the keys themselves)",
        parameters: paging,
        responses: {
          200: jsonBody(
            {
              type: 'object',
              properties: {
                keys: { type: 'array', items: schemaRef('WorkspaceKey') },
                page: { type: 'integer' },
                per_page: { type: 'integer' },
                total: { type: 'integer' },
                next: { type: 'string' },
              },
            },
            'A page of keys',
          ),
          ...refusals,
        },
      },
      post: {
        summary: 'Create an API key; the key is in this answer only',
        description:
          `A workspace holds at most ${MAX_WORKSPACE_KEYS} working keys made this way (409 beyond). The ` +
          'role is fixed at creation (`admin` by default): to change it, create a key with the other role and ' +
          'revoke this one.',
        requestBody: { content: { 'application/json': { schema: toJson(createKeySchema) } } },
        responses: {
          201: jsonBody(
            {
              allOf: [
                schemaRef('WorkspaceKey'),
                { type: 'object', properties: { key: { type: 'string', pattern: '^trawl_[A-Za-z0-9_-]{43}$' } } },
              ],
            },
            'The key',
          ),
          400: errorBody('Invalid input'),
          ...refusals,
          409: errorBody('Too many keys'),
        },
      },
    },
    '/v1/keys/{id}': {
      patch: {
        summary: 'Rename a key',
        parameters: [idParam],
        requestBody: { required: true, content: { 'application/json': { schema: toJson(renameKeySchema) } } },
        responses: {
          200: jsonBody(schemaRef('WorkspaceKey'), 'The key'),
          400: errorBody('Invalid input'),
          ...refusals,
          404: errorBody('Unknown or revoked key, or ' + "another workspace's"),
        },
      },
      delete: {
        summary: 'Revoke a key: the next request with it is 401, in every process',
        description:
          "Revoking a revoked key answers it unchanged. The workspace's last working admin key cannot " +
          "be revoked (409: create another admin key first), nor a self-hosted server's configured key (409: " +
          'change `TRAWL_API_KEY`).',
        parameters: [idParam],
        responses: {
          200: jsonBody(
            { allOf: [{ type: 'object', properties: { success: { type: 'boolean', enum: [true] } } }, schemaRef('WorkspaceKey')] },
            '`success: true` as every ' + '/v1 delete answers, with the revoked key',
          ),
          ...refusals,
          404: errorBody("Unknown key, or another workspace's"),
          409: errorBody('The last admin key, or the ' + 'configured key'),
        },
      },
    },
  },
  schemas: { WorkspaceKey: keySchema },
};
