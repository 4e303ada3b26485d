/**
 * Small builders for the OpenAPI document, shared by server/openapi.ts and the docs that the wire
 * formats keep beside their schemas (server/wire/<format>/*.docs.ts): schema references, JSON
 * bodies, the error envelope, date-time strings, zod-to-JSON-Schema, and the id and paging
 * parameters.
 */
import { z } from 'zod';

export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const jsonBody = (schema: unknown, description: string) => ({ description, content: { 'application/json': { schema } } });
export const errorBody = (description: string) => jsonBody(schemaRef('Error'), description);
export const dateTime = (description: string, nullable = false) => ({
  type: nullable ? ['string', 'null'] : 'string',
  format: 'date-time',
  description,
});
export const pathId = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
/** The paging parameters every list takes (server/pagination.ts), as shared components. */
export const pagingParameters = {
  Limit: {
    name: 'limit',
    in: 'query',
    description: 'Items in this answer.',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  },
  Offset: {
    name: 'offset',
    in: 'query',
    description: 'Items skipped before this answer.',
    schema: { type: 'integer', minimum: 0, default: 0 },
  },
  Page: {
    name: 'page',
    in: 'query',
    description: 'Alias: with `per_page`, the same as `offset` = (page − 1) · per_page. Not together with `limit` or `offset` (400).',
    schema: { type: 'integer', minimum: 1, default: 1 },
  },
  PerPage: {
    name: 'per_page',
    in: 'query',
    description: 'Alias of `limit`. Not together with `limit` or `offset` (400).',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  },
};
export const paging = Object.keys(pagingParameters).map((name) => ({ $ref: `#/components/parameters/${name}` }));
export const PAGING_ERROR =
  'Invalid `limit`, `offset`, `page` or `per_page`; both paging styles at once (`Query parameters limit, page mix two paging styles…`); or `Unknown query parameter: <name>`';

/** What every list answer carries beside its items. */
export const pageFields = {
  total: { type: 'integer', description: 'Items in the whole list.' },
  limit: { type: 'integer' },
  offset: { type: 'integer' },
  page: { type: 'integer', description: "The alias's view: the page of `limit` items the answer starts in." },
  per_page: { type: 'integer', description: "The alias's view: equal to `limit`." },
  next: { type: 'string', description: 'Path of the next slice (with `limit` and `offset`); absent when no items remain.' },
};

/** A list answer: `items` under `key`, with the page fields. */
export const pagedBody = (key: string, items: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  required: [key, 'total', 'limit', 'offset', 'page', 'per_page'],
  properties: { [key]: { type: 'array', items }, ...extra, ...pageFields },
});

/** A request schema as JSON Schema, from the same zod schema that validates it. */
export const toJson = (schema: z.ZodType) => {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
};
