/**
 * A workspace runs its own account with its keys (what the account page, server/account-page/,
 * calls): `GET /v1/account` (the workspace, its plan and balance, the calling key and its role) and
 * its API keys — `GET /v1/keys`, `POST /v1/keys` (the secret is in that answer only),
 * `PATCH /v1/keys/{id}` (rename) and `DELETE /v1/keys/{id}` (revoke, at once).
 *
 * Roles: `admin` keys manage the workspace's keys and see its billing (the balance here, and
 * /v1/usage); `member` keys call the API only and get 403 on key management (routes declared
 * `admin`, refused by the route runner before a body is read). A workspace keeps at
 * least one working admin key (409). The operator (admin API, CLI) is above both. Served in both
 * modes: a self-hosted server's default workspace has no plan or balance (null), and on a server
 * without a key every caller is an admin.
 */
import { z } from 'zod';
import { AccountsToken, MAX_WORKSPACE_KEYS, type KeyInfo } from '../../../core/features/accounts/accounts.ts';
import { TrawlError } from '../../../core/errors.ts';
import { KEY_ROLES } from '../../../core/storage/workspaces.ts';
import { dateTime, errorBody, jsonBody, paging, schemaRef, toJson } from '../../openapi-shapes.ts';
import { pagedQuery, pageFrom, pageOf } from '../../pagination.ts';
import { defineRoutes, route, type Caller } from '../../route.ts';
import { createKeySchema, keyName } from '../admin.ts';

export const renameKeySchema = z.strictObject({ name: keyName.nullable().describe('A label for people; null clears it.') });


const presentOwnKey = (key: KeyInfo, caller: Caller) => ({
  id: key.id, name: key.name, role: key.role, suffix: key.suffix, created_at: key.createdAt, revoked_at: key.revokedAt, current: key.id === caller.keyId,
});
const MAX_ID = 64;
const keyId = (params: Record<string, string>) => {
  const id = params.id!;
  if (id.length > MAX_ID) throw new TrawlError('not_found', `Key not found: ${id.slice(0, MAX_ID)}`);
  return id;
};
const MANAGE = 'managing API keys';

const roleDoc = '`admin`: manages the workspace\'s keys and sees its billing; `member`: calls the API only.';
const keySchema = {
  type: 'object',
  required: ['id', 'name', 'role', 'suffix', 'created_at', 'revoked_at', 'current'],
  properties: {
    id: { type: 'string' }, name: { type: ['string', 'null'] }, role: { enum: [...KEY_ROLES], description: roleDoc },
    suffix: { type: ['string', 'null'], description: 'The key\'s last four characters; null for the key set by a self-hosted server\'s configuration.' },
    created_at: dateTime('Creation time'), revoked_at: dateTime('When it was revoked', true),
    current: { type: 'boolean', description: 'The key this request was made with.' },
  },
};
const refusals = { 401: errorBody('Invalid or missing API key'), 403: errorBody('A member key: key management needs an admin key') };
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const nullable = (type: string, description: string) => ({ type: [type, 'null'], description });

const accountOpenApi = {
  paths: {
    '/v1/account': {
      get: {
        summary: 'The workspace, its plan and balance, and the calling key',
        description: 'Any key may read it; `balance` is billing, shown to admin keys only (null for a member key). On a self-hosted server plan, status, balance and rate limit are null.',
        responses: {
          200: jsonBody({
            type: 'object',
            properties: {
              workspace: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } },
              mode: { enum: ['cloud', 'self-hosted'] },
              plan: nullable('string', 'The plan (cloud mode).'), status: nullable('string', '`active` or `lapsed` (cloud mode).'),
              balance: nullable('integer', 'Credits left; admin keys only.'),
              rate_limit_per_minute: nullable('integer', 'The request limit in force (cloud mode).'),
              key: { type: ['object', 'null'], description: 'The calling key (null on a self-hosted server called without one).', properties: { id: { type: 'string' }, role: { enum: [...KEY_ROLES], description: roleDoc } } },
              role: { enum: [...KEY_ROLES], description: `What the caller may do: ${roleDoc}` },
            },
          }, 'The account'),
          401: refusals[401],
        },
      },
    },
    '/v1/keys': {
      get: {
        summary: 'The workspace\'s working API keys, oldest first (never the keys themselves)', parameters: paging,
        responses: { 200: jsonBody({ type: 'object', properties: { keys: { type: 'array', items: schemaRef('WorkspaceKey') }, page: { type: 'integer' }, per_page: { type: 'integer' }, total: { type: 'integer' }, next: { type: 'string' } } }, 'A page of keys'), ...refusals },
      },
      post: {
        summary: 'Create an API key; the key is in this answer only',
        description: `A workspace holds at most ${MAX_WORKSPACE_KEYS} working keys made this way (409 beyond). The role is fixed at creation (\`admin\` by default): to change it, create a key with the other role and revoke this one.`,
        requestBody: { content: { 'application/json': { schema: toJson(createKeySchema) } } },
        responses: { 201: jsonBody({ allOf: [schemaRef('WorkspaceKey'), { type: 'object', properties: { key: { type: 'string', pattern: '^trawl_[A-Za-z0-9_-]{43}$' } } }] }, 'The key'), 400: errorBody('Invalid input'), ...refusals, 409: errorBody('Too many keys') },
      },
    },
    '/v1/keys/{id}': {
      patch: {
        summary: 'Rename a key', parameters: [idParam], requestBody: { required: true, content: { 'application/json': { schema: toJson(renameKeySchema) } } },
        responses: { 200: jsonBody(schemaRef('WorkspaceKey'), 'The key'), 400: errorBody('Invalid input'), ...refusals, 404: errorBody('Unknown or revoked key, or another workspace\'s') },
      },
      delete: {
        summary: 'Revoke a key: the next request with it is 401, in every process',
        description: 'Revoking a revoked key answers it unchanged. The workspace\'s last working admin key cannot be revoked (409: create another admin key first), nor a self-hosted server\'s configured key (409: change `TRAWL_API_KEY`).',
        parameters: [idParam],
        responses: { 200: jsonBody({ allOf: [{ type: 'object', properties: { success: { type: 'boolean', enum: [true] } } }, schemaRef('WorkspaceKey')] }, '`success: true` as every /v1 delete answers, with the revoked key'), ...refusals, 404: errorBody('Unknown key, or another workspace\'s'), 409: errorBody('The last admin key, or the configured key') },
      },
    },
  },
  schemas: { WorkspaceKey: keySchema },
};

export const accountModule = defineRoutes({
  name: 'account',
  needs: { accounts: AccountsToken },
  routes: ({ accounts }, env) => [
    {
      method: 'GET', path: '/v1/account',
      async handle({ caller, workspace }) {
        // Read now: a remembered caller's account may be seconds old, and this answer is about the balance.
        const found = await accounts.getWorkspace(workspace);
        if (!found) throw new TrawlError('not_found', 'Workspace not found');
        const account = env.config.mode === 'cloud' ? found : null;
        const admin = caller.role === 'admin';
        return {
          workspace: { id: workspace, name: found.name },
          mode: env.config.mode,
          plan: account?.plan ?? null,
          status: account?.status ?? null,
          balance: account && admin ? account.credits : null,
          rate_limit_per_minute: account ? account.rateLimit ?? env.config.plans[account.plan].rateLimitPerMinute : null,
          key: caller.keyId ? { id: caller.keyId, role: caller.role } : null,
          role: caller.role,
        };
      },
    },
    {
      method: 'GET', path: '/v1/keys', admin: MANAGE, query: pagedQuery(),
      async handle({ request, caller, workspace, query }) {
        const page = pageFrom(query);
        const { items, total } = await accounts.ownKeys(workspace, page);
        return pageOf('keys', items.map((key) => presentOwnKey(key, caller)), total, page, request);
      },
    },
    route<z.output<typeof createKeySchema>>({
      method: 'POST', path: '/v1/keys', admin: MANAGE, body: 'manual', input: createKeySchema, emptyBody: true,
      async handle({ caller, workspace, body }) {
        const { total } = await accounts.ownKeys(workspace, { offset: 0, limit: 1 });
        if (total >= MAX_WORKSPACE_KEYS) throw new TrawlError('conflict', `A workspace holds at most ${MAX_WORKSPACE_KEYS} working keys: revoke one first`);
        const { key, info } = await accounts.createKey(workspace, { name: body.name, role: body.role, byKey: caller.keyId ?? null });
        return Response.json({ ...presentOwnKey(info, caller), key }, { status: 201 });
      },
    }),
    route<z.output<typeof renameKeySchema>>({
      method: 'PATCH', path: '/v1/keys/:id', admin: MANAGE, body: 'manual', input: renameKeySchema,
      async handle({ caller, workspace, params, body }) {
        return presentOwnKey(await accounts.renameKey(workspace, keyId(params), body.name, caller.keyId ?? null), caller);
      },
    }),
    {
      method: 'DELETE', path: '/v1/keys/:id', admin: MANAGE,
      async handle({ caller, workspace, params }) {
        // `success` as every /v1 delete answers; the revoked key with its revoked_at beside it.
        return { success: true, ...presentOwnKey(await accounts.revokeOwnKey(workspace, keyId(params), caller.keyId ?? null), caller) };
      },
    },
  ],
  openapi: () => accountOpenApi,
});
