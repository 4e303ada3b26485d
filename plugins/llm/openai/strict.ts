/**
 * A JSON Schema as OpenAI's strict structured output takes it, and the answer mapped back. Strict
 * mode wants an object at the root, every property listed in `required`, `additionalProperties:
 * false` on every object and only the keywords it supports. So: a non-object root is wrapped in
 * `{value}`; optional properties become required-but-nullable, and a null the model gives for one
 * is dropped again; `oneOf` becomes `anyOf`, `definitions` `$defs`; unsupported keywords are left
 * out (the service still validates the answer against the original schema). A schema strict mode
 * cannot express (an object of free keys) is sent with `strict: false`.
 */
import type { JsonSchema } from '../../../core/kit.ts';

/** Keywords strict mode accepts (structured outputs guide: supported properties). */
const KEPT = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'description',
  'title',
  'pattern',
  'format',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
]);
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
type Node = JsonSchema;

export interface StrictSchema {
  schema: JsonSchema;
  strict: boolean;
  /** The answer as the original schema expects it: unwrapped, nulls of optional properties dropped. */
  restore(data: unknown): unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function nullable(schema: JsonSchema): JsonSchema {
  const { type } = schema;
  if (typeof type === 'string' && !('enum' in schema) && !('const' in schema)) return { ...schema, type: [type, 'null'] };
  if (Array.isArray(type) && !('enum' in schema)) return type.includes('null') ? schema : { ...schema, type: [...type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

export function strictSchema(original: JsonSchema): StrictSchema {
  let strict = true;
  // Which properties of each adapted object schema were optional before.
  const optionalOf = new WeakMap<Node, Set<string>>();
  const adapt = (node: unknown): unknown => {
    if (!isObject(node)) return node;
    const out: Node = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'oneOf') out.anyOf = (value as unknown[]).map(adapt);
      else if (key === 'definitions' || key === '$defs')
        out.$defs = Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, adapt(v)]));
      else if (key === '$ref' && typeof value === 'string') out.$ref = value.replace(/^#\/definitions\//, '#/$defs/');
      else if (key === 'format' && !FORMATS.has(String(value))) continue;
      else if (!KEPT.has(key)) continue;
      else if (key === 'items') out.items = adapt(value);
      else if (key === 'anyOf') out.anyOf = (value as unknown[]).map(adapt);
      else if (key !== 'properties' && key !== 'required' && key !== 'additionalProperties') out[key] = value;
    }
    const isObjectSchema =
      node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object')) || isObject(node.properties);
    if (!isObjectSchema) return out;
    const properties = isObject(node.properties) ? node.properties : {};
    const required = new Set(Array.isArray(node.required) ? node.required.map(String) : []);
    const optional = new Set(Object.keys(properties).filter((k) => !required.has(k)));
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([k, v]) => [k, optional.has(k) ? nullable(adapt(v) as JsonSchema) : adapt(v)]),
    );
    out.required = Object.keys(properties);
    // Free keys (a map) cannot be strict: keep them and send the schema unenforced.
    if (
      node.additionalProperties === true ||
      isObject(node.additionalProperties) ||
      (Object.keys(properties).length === 0 && node.additionalProperties !== false)
    ) {
      strict = false;
      out.additionalProperties = isObject(node.additionalProperties) ? adapt(node.additionalProperties) : true;
    } else {
      out.additionalProperties = false;
    }
    if (optional.size) optionalOf.set(out, optional);
    return out;
  };

  const rootIsObject = original.type === 'object';
  const body = adapt(original) as Node;
  const schema: Node = rootIsObject
    ? body
    : { type: 'object', properties: { value: body }, required: ['value'], additionalProperties: false };
  if (!rootIsObject && isObject(body.$defs)) {
    // $refs point at the root's $defs: they move up with the wrapper.
    schema.$defs = body.$defs;
    delete body.$defs;
  }
  const defs = isObject(schema.$defs) ? (schema.$defs as Record<string, Node>) : {};

  const restore = (node: Node | undefined, data: unknown): unknown => {
    if (!node || data === null || typeof data !== 'object') return data;
    if (typeof node.$ref === 'string') return restore(defs[node.$ref.replace('#/$defs/', '')], data);
    if (Array.isArray(node.anyOf)) return (node.anyOf as Node[]).reduce<unknown>((d, branch) => restore(branch, d), data);
    if (Array.isArray(data)) return isObject(node.items) ? data.map((item) => restore(node.items as Node, item)) : data;
    const properties = isObject(node.properties) ? (node.properties as Record<string, Node>) : {};
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(data)) {
      if (value === null && optionalOf.get(node)?.has(key)) continue;
      out[key] = restore(properties[key], value);
    }
    return out;
  };

  return {
    schema,
    strict,
    restore: (data) => {
      const restored = restore(schema, data);
      return rootIsObject ? restored : isObject(restored) ? restored.value : restored;
    },
  };
}
