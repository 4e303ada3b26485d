/** The OpenAPI of the admin API: its routes, with bodies from the zod schemas that validate them, and the workspace and key records. */
import { createKeySchema, createWorkspaceSchema, grantSchema, updateWorkspaceSchema } from './workspaces.ts';
import { KEY_ROLES, PLANS, WORKSPACE_STATUSES } from '../../../core/storage/workspaces.ts';
import { dateTime, errorBody, jsonBody, pagedBody, paging, PAGING_ERROR, schemaRef, toJson } from '../../openapi-shapes.ts';

const workspaceSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    plan: { enum: [...PLANS] },
    status: { enum: [...WORKSPACE_STATUSES] },
    credits: { type: 'integer', description: 'The balance.' },
    rate_limit: { type: ['integer', 'null'], description: "The workspace's own requests per minute; null: its plan's." },
    rate_limit_per_minute: { type: 'integer', description: 'The limit in force.' },
    created_at: dateTime('Creation time'),
    updated_at: dateTime('Last change', true),
  },
};
const keySchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    workspace_id: { type: 'string' },
    name: { type: ['string', 'null'] },
    suffix: {
      type: ['string', 'null'],
      description: "The key's last four characters (null: the key set by the " + "server's configuration).",
    },
    role: {
      enum: [...KEY_ROLES],
      description: "`admin`: manages the workspace's keys and sees its billing; " + '`member`: calls the API only.',
    },
    created_at: dateTime('Creation time'),
    revoked_at: dateTime('When it was revoked', true),
  },
};
const unauthorized = { 401: errorBody('Invalid or missing admin key') };
const notFound = { 404: errorBody('Unknown workspace') };
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

export const adminOpenApi = {
  paths: {
    '/admin/workspaces': {
      post: {
        summary: 'Create a workspace',
        requestBody: { required: true, content: { 'application/json': { schema: toJson(createWorkspaceSchema) } } },
        responses: { 201: jsonBody(schemaRef('AdminWorkspace'), 'The workspace'), 400: errorBody('Invalid input'), ...unauthorized },
      },
      get: {
        summary: 'List workspaces, newest first',
        parameters: paging,
        responses: {
          200: jsonBody(pagedBody('workspaces', schemaRef('AdminWorkspace')), 'A slice of workspaces'),
          400: errorBody(PAGING_ERROR),
          ...unauthorized,
        },
      },
    },
    '/admin/workspaces/{id}': {
      get: {
        summary: 'A workspace with its keys',
        parameters: [idParam],
        responses: {
          200: jsonBody(
            {
              allOf: [
                schemaRef('AdminWorkspace'),
                { type: 'object', properties: { keys: { type: 'array', items: schemaRef('AdminKey') } } },
              ],
            },
            'The workspace',
          ),
          ...unauthorized,
          ...notFound,
        },
      },
      patch: {
        summary: 'Change name, plan, status or rate limit',
        parameters: [idParam],
        requestBody: { required: true, content: { 'application/json': { schema: toJson(updateWorkspaceSchema) } } },
        responses: {
          200: jsonBody(schemaRef('AdminWorkspace'), 'The workspace'),
          400: errorBody('Invalid input'),
          ...unauthorized,
          ...notFound,
        },
      },
    },
    '/admin/workspaces/{id}/keys': {
      post: {
        summary: 'Create an API key; the key is in this answer only',
        parameters: [idParam],
        requestBody: { content: { 'application/json': { schema: toJson(createKeySchema) } } },
        responses: {
          201: jsonBody(
            {
              allOf: [
                schemaRef('AdminKey'),
                { type: 'object', properties: { key: { type: 'string', pattern: '^trawl_[A-Za-z0-9_-]{43}$' } } },
              ],
            },
            'The key',
          ),
          ...unauthorized,
          ...notFound,
        },
      },
      get: {
        summary: "The workspace's keys (never the keys themselves)",
        parameters: [idParam],
        responses: {
          200: jsonBody({ type: 'object', properties: { keys: { type: 'array', items: schemaRef('AdminKey') } } }, 'Keys, oldest first'),
          ...unauthorized,
          ...notFound,
        },
      },
    },
    '/admin/keys/{id}': {
      delete: {
        summary: 'Revoke a key: it authenticates nothing from now on, in every process',
        parameters: [idParam],
        responses: { 200: jsonBody(schemaRef('AdminKey'), 'The revoked key'), ...unauthorized, 404: errorBody('Unknown key') },
      },
    },
    '/admin/workspaces/{id}/credits': {
      post: {
        summary: 'Grant credits',
        parameters: [idParam],
        requestBody: { required: true, content: { 'application/json': { schema: toJson(grantSchema) } } },
        responses: {
          200: jsonBody(schemaRef('AdminWorkspace'), 'The workspace with its new balance'),
          400: errorBody('Invalid input'),
          ...unauthorized,
          ...notFound,
        },
      },
    },
  },
  schemas: { AdminWorkspace: workspaceSchema, AdminKey: keySchema },
};
