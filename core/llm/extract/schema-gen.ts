/**
 * A schema from a prompt: the model lists the fields the instruction asks for (name, kind,
 * description; the fields of list items one level down), and the JSON Schema is built from that
 * list here. Asking for a field list rather than for a JSON Schema keeps the model's task small
 * and its answer checkable by every provider, and the schema it yields is always valid.
 */
import type { JsonSchema } from '../provider.ts';

export const FIELD_KINDS = ['string', 'number', 'integer', 'boolean', 'url', 'string_list', 'number_list', 'object_list'] as const;
const ITEM_KINDS = ['string', 'number', 'integer', 'boolean', 'url'] as const;
const MAX_FIELDS = 30;
const MAX_ITEM_FIELDS = 20;

const field = (kinds: readonly string[]) => ({
  name: { type: 'string', maxLength: 64, description: 'snake_case name of the field' },
  kind: { enum: [...kinds], description: 'what the value is' },
  description: { type: 'string', maxLength: 300, description: 'what the field holds, in a few words' },
});

/** What the model answers: the fields to extract. */
export const FIELD_LIST_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    fields: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_FIELDS,
      items: {
        type: 'object',
        properties: {
          ...field(FIELD_KINDS),
          item_fields: {
            type: 'array',
            maxItems: MAX_ITEM_FIELDS,
            description: 'for kind object_list: the fields of each item; otherwise empty',
            items: {
              type: 'object',
              properties: field(ITEM_KINDS),
              required: ['name', 'kind', 'description'],
              additionalProperties: false,
            },
          },
        },
        required: ['name', 'kind', 'description', 'item_fields'],
        additionalProperties: false,
      },
    },
  },
  required: ['fields'],
  additionalProperties: false,
};

export const SCHEMA_SYSTEM_PROMPT =
  'You plan a data extraction from a web page. From the instruction and the start of the page, ' +
  'list the fields the answer should have: a snake_case name, the kind of value and a short description each. ' +
  'Use object_list with item_fields for repeated items (products, people, events). List only what the instruction asks for.';

interface Field {
  name: string;
  kind: string;
  description: string;
  item_fields?: Field[];
}

/** `Product Name` → `product_name`; unique within its object. */
function names(fields: Field[]): Array<[string, Field]> {
  const used = new Set<string>();
  return fields.flatMap((f) => {
    const base =
      f.name
        .normalize('NFKD')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '_')
        .replace(/^_+|_+$/g, '')
        .slice(0, 64) || 'field';
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
    used.add(name);
    return [[name, f] as [string, Field]];
  });
}

function valueSchema(kind: string, description: string): JsonSchema {
  switch (kind) {
    case 'url':
      return { type: ['string', 'null'], description: `${description} (an absolute URL)` };
    case 'string_list':
      return { type: 'array', items: { type: 'string' }, description };
    case 'number_list':
      return { type: 'array', items: { type: 'number' }, description };
    default:
      return { type: [kind, 'null'], description };
  }
}

function objectSchema(fields: Field[]): JsonSchema {
  const entries = names(fields).map(([name, f]): [string, JsonSchema] => {
    // A list of objects without fields to give them is a list of strings.
    if (f.kind !== 'object_list' || !f.item_fields?.length)
      return [name, valueSchema(f.kind === 'object_list' ? 'string_list' : f.kind, f.description)];
    return [name, { type: 'array', description: f.description, items: objectSchema(f.item_fields ?? []) }];
  });
  return { type: 'object', properties: Object.fromEntries(entries), required: entries.map(([name]) => name), additionalProperties: false };
}

/** The JSON Schema for the model's field list: every field required, a value the page lacks is null (or an empty list). */
export function schemaFromFields(answer: unknown): JsonSchema {
  return objectSchema((answer as { fields: Field[] }).fields);
}
