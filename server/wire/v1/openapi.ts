/**
 * JSON Schemas generated from internal (camelCase) zod schemas, renamed for the /v1 document:
 * plugin-declared shapes such as the action objects are validated under internal names but sent
 * and documented under /v1 ones.
 */
import { toV1Name } from './names.ts';

type JsonSchema = Record<string, unknown>;

/** The schema with its property names (and `required`) in /v1 style, nested objects and variants included. */
export function v1JsonSchema(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (schema.properties && typeof schema.properties === 'object') {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties as Record<string, JsonSchema>).map(([key, value]) => [toV1Name(key), v1JsonSchema(value)]),
    );
  }
  if (Array.isArray(schema.required)) out.required = schema.required.map((key: string) => toV1Name(key));
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    if (Array.isArray(schema[key])) out[key] = (schema[key] as JsonSchema[]).map(v1JsonSchema);
  }
  if (schema.items && typeof schema.items === 'object') out.items = v1JsonSchema(schema.items as JsonSchema);
  return out;
}
