/**
 * Small builders for the OpenAPI document, shared by server/openapi.ts and the route modules that
 * describe themselves: schema references, JSON bodies, the error envelope, date-time strings,
 * zod-to-JSON-Schema, and the id and paging parameters.
 */
import { z } from 'zod';

export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const jsonBody = (schema: unknown, description: string) => ({ description, content: { 'application/json': { schema } } });
export const errorBody = (description: string) => jsonBody(schemaRef('Error'), description);
export const dateTime = (description: string, nullable = false) => ({ type: nullable ? ['string', 'null'] : 'string', format: 'date-time', description });
export const pathId = { name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
export const paging = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
  { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
];

/** A request schema as JSON Schema, from the same zod schema that validates it. */
export const toJson = (schema: z.ZodType) => {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
};
