/**
 * A JSON Schema as node-llama-cpp's grammar generator takes it (its GbnfJsonSchema subset: type,
 * properties, additionalProperties, items, prefixItems, min/max items, properties and length,
 * enum, const, oneOf, `#/$defs/` refs, three string formats). `anyOf` becomes `oneOf`,
 * `definitions` `$defs`, a type list with object or array a `oneOf`; keywords it lacks are left
 * out, and a part it cannot express becomes "any JSON" (its generator would read an unknown part
 * as `null`). The grammar only shapes the output: the service validates it against the full
 * schema (an integer the grammar allows as `5E-1` is refused there).
 */
import type { JsonSchema } from '../../../core/kit.ts';

const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean', 'null']);
const FORMATS = new Set(['date-time', 'time', 'date']);
const COPIED = ['description', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'] as const;

/** Any JSON value, spelled so the generator reads it as such. */
export const ANY_JSON: JsonSchema = {
  oneOf: [{ type: ['string', 'number', 'boolean', 'null'] }, { type: 'object', additionalProperties: true }, { type: 'array' }],
};

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function grammarSchema(schema: JsonSchema): JsonSchema {
  const adapt = (node: unknown, depth: number): JsonSchema => {
    if (node === true || !isObject(node) || depth > 48) return ANY_JSON;
    if ('const' in node) return { const: node.const as never };
    if (Array.isArray(node.enum)) return { enum: node.enum.filter((v) => v === null || typeof v !== 'object') };
    if (typeof node.$ref === 'string') {
      const ref = node.$ref.replace(/^#\/definitions\//, '#/$defs/');
      return ref.startsWith('#/$defs/') ? { $ref: ref } : ANY_JSON;
    }
    const alternatives = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
    if (Array.isArray(alternatives)) return { oneOf: alternatives.map((a) => adapt(a, depth + 1)) };
    if (Array.isArray(node.allOf) && node.allOf.length === 1) return adapt(node.allOf[0], depth + 1);

    const types = (Array.isArray(node.type) ? node.type : node.type === undefined ? inferred(node) : [node.type]).map(String);
    if (types.length === 0) return ANY_JSON;
    if (types.length > 1 && types.some((t) => !PRIMITIVES.has(t)))
      return { oneOf: types.map((t) => adapt({ ...node, type: t }, depth + 1)) };
    const out: Record<string, unknown> = { type: types.length === 1 ? types[0] : types };
    for (const key of COPIED)
      if (typeof node[key] === 'number' || (key === 'description' && typeof node[key] === 'string')) out[key] = node[key];
    if (types[0] === 'string' && typeof node.format === 'string' && FORMATS.has(node.format)) out.format = node.format;
    if (types[0] === 'object') {
      const properties = isObject(node.properties) ? node.properties : {};
      out.properties = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, adapt(v, depth + 1)]));
      const extra = node.additionalProperties;
      // JSON Schema allows extra keys unless told not to; a model is better kept to the named ones.
      out.additionalProperties = isObject(extra) ? adapt(extra, depth + 1) : Object.keys(properties).length === 0 && extra !== false;
    }
    if (types[0] === 'array') {
      if (node.items !== undefined) out.items = adapt(node.items, depth + 1);
      if (Array.isArray(node.prefixItems)) out.prefixItems = node.prefixItems.map((i) => adapt(i, depth + 1));
    }
    return out as JsonSchema;
  };
  const root = { ...adapt(schema, 0) };
  const defs = (schema.$defs ?? schema.definitions) as Record<string, unknown> | undefined;
  if (isObject(defs)) root.$defs = Object.fromEntries(Object.entries(defs).map(([k, v]) => [k, adapt(v, 1)]));
  return root;
}

/** A schema without `type` says what it is by its keywords. */
function inferred(node: Record<string, unknown>): string[] {
  if (isObject(node.properties) || 'additionalProperties' in node) return ['object'];
  if ('items' in node || 'prefixItems' in node) return ['array'];
  if ('minLength' in node || 'maxLength' in node || 'pattern' in node || 'format' in node) return ['string'];
  return [];
}
