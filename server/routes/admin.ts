/**
 * The admin API, the operator's side of cloud mode (the back end a dashboard would call; the CLI's
 * `admin` commands do the same against the database): workspaces (`/admin/workspaces`), their keys
 * and credit grants. Guarded by its own key (TRAWL_ADMIN_KEY, server/auth.ts) and served only when
 * one is configured. A key is in the answer to its creation and nowhere else.
 */
import { z } from 'zod';
import { AccountsToken, type AccountsService, type KeyInfo } from '../../core/features/accounts/accounts.ts';
import { KEY_ROLES, PLANS, WORKSPACE_STATUSES, type Account } from '../../core/storage/workspaces.ts';
import type { TrawlConfig } from '../../core/config-schema.ts';
import { dateTime, errorBody, jsonBody, pagedBody, paging, PAGING_ERROR, schemaRef, toJson } from '../openapi-shapes.ts';
import { pagedQuery, pageFrom, pageOf } from '../pagination.ts';
import { defineRoutes, route, type Route } from '../route.ts';

const name = z.string().trim().min(1).max(200);
const rateLimit = z.number().int().min(1).max(1_000_000);
const credits = z.number().int().min(0).max(1_000_000_000_000);

export const createWorkspaceSchema = z.strictObject({
  name,
  plan: z.enum(PLANS),
  credits: credits.default(0).describe('Initial balance.'),
  rate_limit: rateLimit.nullable().optional().describe('Requests per minute for this workspace; unset or null: the plan\'s.'),
});

export const updateWorkspaceSchema = z.strictObject({
  name: name.optional(),
  plan: z.enum(PLANS).optional(),
  status: z.enum(WORKSPACE_STATUSES).optional().describe('`lapsed`: reads only, no billable work, no paid features.'),
  rate_limit: rateLimit.nullable().optional().describe('null: back to the plan\'s limit.'),
}).refine((p) => Object.values(p).some((v) => v !== undefined), 'Request body must set name, plan, status or rate_limit');

export const keyName = name;
export const keyRole = z.enum(KEY_ROLES).describe('`admin`: manages the workspace\'s keys and sees its billing; `member`: calls the API only.');
export const createKeySchema = z.strictObject({ name: name.optional().describe('A label for people.'), role: keyRole.default('admin') });

export const grantSchema = z.strictObject({
  credits: credits.min(1).describe('Credits added to the balance.'),
  note: z.string().max(500).optional(),
});

export function presentWorkspace(account: Account, plans: TrawlConfig['plans']) {
  return {
    id: account.id,
    name: account.name,
    plan: account.plan,
    status: account.status,
    credits: account.credits,
    rate_limit: account.rateLimit,
    rate_limit_per_minute: account.rateLimit ?? plans[account.plan].rateLimitPerMinute,
    created_at: account.createdAt,
    updated_at: account.updatedAt,
  };
}

export const presentKey = (key: KeyInfo) => ({
  id: key.id, workspace_id: key.workspaceId, name: key.name, suffix: key.suffix, role: key.role, created_at: key.createdAt, revoked_at: key.revokedAt,
});

function adminRoutes(accounts: AccountsService, plans: TrawlConfig['plans']): Route[] {
  const present = (account: Account) => presentWorkspace(account, plans);
  return [
    route<z.output<typeof createWorkspaceSchema>>({
      method: 'POST', path: '/admin/workspaces', body: 'manual', input: createWorkspaceSchema,
      async handle({ body }) {
        const account = await accounts.createWorkspace({ name: body.name, plan: body.plan, credits: body.credits, rateLimit: body.rate_limit ?? null });
        return Response.json(present(account), { status: 201 });
      },
    }),
    route({
      method: 'GET', path: '/admin/workspaces', query: pagedQuery(),
      async handle({ request, query }) {
        const page = pageFrom(query);
        const { items, total } = await accounts.listWorkspaces(page);
        return pageOf('workspaces', items.map(present), total, page, request);
      },
    }),
    {
      method: 'GET', path: '/admin/workspaces/:id',
      async handle({ params }) {
        const account = await accounts.getWorkspace(params.id!);
        if (!account) return Response.json({ error: `Workspace not found: ${params.id!.slice(0, 64)}` }, { status: 404 });
        return { ...present(account), keys: (await accounts.listKeys(account.id)).map(presentKey) };
      },
    },
    route<z.output<typeof updateWorkspaceSchema>>({
      method: 'PATCH', path: '/admin/workspaces/:id', body: 'manual', input: updateWorkspaceSchema,
      async handle({ params, body }) {
        return present(await accounts.updateWorkspace(params.id!, { name: body.name, plan: body.plan, status: body.status, rateLimit: body.rate_limit }));
      },
    }),
    route<z.output<typeof createKeySchema>>({
      method: 'POST', path: '/admin/workspaces/:id/keys', body: 'manual', input: createKeySchema, emptyBody: true,
      async handle({ params, body }) {
        const { key, info } = await accounts.createKey(params.id!, { name: body.name, role: body.role });
        return Response.json({ ...presentKey(info), key }, { status: 201 });
      },
    }),
    {
      method: 'GET', path: '/admin/workspaces/:id/keys',
      handle: async ({ params }) => ({ keys: (await accounts.listKeys(params.id!)).map(presentKey) }),
    },
    {
      method: 'DELETE', path: '/admin/keys/:id',
      handle: async ({ params }) => presentKey(await accounts.revokeKey(params.id!)),
    },
    route<z.output<typeof grantSchema>>({
      method: 'POST', path: '/admin/workspaces/:id/credits', body: 'manual', input: grantSchema,
      handle: async ({ params, body }) => present(await accounts.grantCredits(params.id!, body.credits, body.note)),
    }),
  ];
}

const workspaceSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' }, name: { type: 'string' }, plan: { enum: [...PLANS] }, status: { enum: [...WORKSPACE_STATUSES] },
    credits: { type: 'integer', description: 'The balance.' },
    rate_limit: { type: ['integer', 'null'], description: 'The workspace\'s own requests per minute; null: its plan\'s.' },
    rate_limit_per_minute: { type: 'integer', description: 'The limit in force.' },
    created_at: dateTime('Creation time'), updated_at: dateTime('Last change', true),
  },
};
const keySchema = {
  type: 'object',
  properties: {
    id: { type: 'string' }, workspace_id: { type: 'string' }, name: { type: ['string', 'null'] },
    suffix: { type: ['string', 'null'], description: 'The key\'s last four characters (null: the key set by the server\'s configuration).' },
    role: { enum: [...KEY_ROLES], description: '`admin`: manages the workspace\'s keys and sees its billing; `member`: calls the API only.' },
    created_at: dateTime('Creation time'), revoked_at: dateTime('When it was revoked', true),
  },
};
const unauthorized = { 401: errorBody('Invalid or missing admin key') };
const notFound = { 404: errorBody('Unknown workspace') };
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

const adminOpenApi = {
  paths: {
    '/admin/workspaces': {
      post: { summary: 'Create a workspace', requestBody: { required: true, content: { 'application/json': { schema: toJson(createWorkspaceSchema) } } }, responses: { 201: jsonBody(schemaRef('AdminWorkspace'), 'The workspace'), 400: errorBody('Invalid input'), ...unauthorized } },
      get: { summary: 'List workspaces, newest first', parameters: paging, responses: { 200: jsonBody(pagedBody('workspaces', schemaRef('AdminWorkspace')), 'A slice of workspaces'), 400: errorBody(PAGING_ERROR), ...unauthorized } },
    },
    '/admin/workspaces/{id}': {
      get: { summary: 'A workspace with its keys', parameters: [idParam], responses: { 200: jsonBody({ allOf: [schemaRef('AdminWorkspace'), { type: 'object', properties: { keys: { type: 'array', items: schemaRef('AdminKey') } } }] }, 'The workspace'), ...unauthorized, ...notFound } },
      patch: { summary: 'Change name, plan, status or rate limit', parameters: [idParam], requestBody: { required: true, content: { 'application/json': { schema: toJson(updateWorkspaceSchema) } } }, responses: { 200: jsonBody(schemaRef('AdminWorkspace'), 'The workspace'), 400: errorBody('Invalid input'), ...unauthorized, ...notFound } },
    },
    '/admin/workspaces/{id}/keys': {
      post: { summary: 'Create an API key; the key is in this answer only', parameters: [idParam], requestBody: { content: { 'application/json': { schema: toJson(createKeySchema) } } }, responses: { 201: jsonBody({ allOf: [schemaRef('AdminKey'), { type: 'object', properties: { key: { type: 'string', pattern: '^trawl_[A-Za-z0-9_-]{43}$' } } }] }, 'The key'), ...unauthorized, ...notFound } },
      get: { summary: 'The workspace\'s keys (never the keys themselves)', parameters: [idParam], responses: { 200: jsonBody({ type: 'object', properties: { keys: { type: 'array', items: schemaRef('AdminKey') } } }, 'Keys, oldest first'), ...unauthorized, ...notFound } },
    },
    '/admin/keys/{id}': {
      delete: { summary: 'Revoke a key: it authenticates nothing from now on, in every process', parameters: [idParam], responses: { 200: jsonBody(schemaRef('AdminKey'), 'The revoked key'), ...unauthorized, 404: errorBody('Unknown key') } },
    },
    '/admin/workspaces/{id}/credits': {
      post: { summary: 'Grant credits', parameters: [idParam], requestBody: { required: true, content: { 'application/json': { schema: toJson(grantSchema) } } }, responses: { 200: jsonBody(schemaRef('AdminWorkspace'), 'The workspace with its new balance'), 400: errorBody('Invalid input'), ...unauthorized, ...notFound } },
    },
  },
  schemas: { AdminWorkspace: workspaceSchema, AdminKey: keySchema },
};

export const adminModule = defineRoutes({
  name: 'admin',
  mounted: (env) => Boolean(env.config.adminKey),
  needs: { accounts: AccountsToken },
  routes: ({ accounts }, env) => adminRoutes(accounts, env.config.plans),
  openapi: () => adminOpenApi,
});
