// JSON Schemas from requests: what is refused (not an object, too large, too deep, invalid for its
// draft, unresolvable, patterns outside RE2), what is accepted (2020-12 and draft-07 with formats),
// and validation with the messages the model and the caller are shown. Patterns run on RE2: a
// pattern that would backtrack exponentially in a JavaScript RegExp answers at once.
import { describe, expect, test } from 'bun:test';
import { checkedSchema } from './schema.ts';

const refusal = (value: unknown, maxBytes = 32_768) => {
  try {
    checkedSchema(value, maxBytes);
  } catch (err) {
    return [(err as { status: number }).status, (err as Error).message];
  }
  throw new Error('expected a refusal');
};

describe('checkedSchema', () => {
  test.each([
    [[], 'Invalid field schema: must be a JSON Schema object'],
    [{ type: 'object', properties: 5 }, 'Invalid field schema: not a valid JSON Schema: at /properties: must be object'],
    [{ type: 'strng' }, 'Invalid field schema: not a valid JSON Schema: at /type: must be equal to one of the allowed values'],
    [{ type: 'object', required: 'name' }, 'Invalid field schema: not a valid JSON Schema: at /required: must be array'],
    [
      { properties: { a: { $ref: '#/$defs/missing' } } },
      "Invalid field schema: the JSON Schema cannot be used: can't resolve reference #/$defs/missing from id #",
    ],
    [
      { type: 'string', pattern: '(?<=a)b' },
      'Invalid field schema: the JSON Schema cannot be used: error parsing regexp: invalid named capture: `(?<=a)b`',
    ],
    [
      { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' },
      'Invalid field schema: $schema "http://json-schema.org/draft-04/schema#" is not supported (use JSON Schema draft 2020-12 or draft-07)',
    ],
  ])('%j is refused', (schema, message) => {
    const [status, text] = refusal(schema);
    expect(status).toBe(400);
    expect(text).toStartWith(message);
  });

  test('size and nesting are bounded', () => {
    expect(refusal({ description: 'x'.repeat(600) }, 512)).toEqual([
      400,
      'Invalid field schema: 618 bytes, at most 512 (llm.maxSchemaBytes)',
    ]);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { a: deep } };
    expect(refusal(deep)).toEqual([400, 'Invalid field schema: nested deeper than 64 levels']);
  });

  test('draft 2020-12 by default, draft-07 by $schema; formats are checked', () => {
    const modern = checkedSchema(
      {
        type: 'object',
        properties: { when: { type: 'string', format: 'date' }, tags: { $ref: '#/$defs/tags' } },
        $defs: { tags: { type: 'array', items: { type: 'string' } } },
        required: ['when'],
      },
      10_000,
    );
    expect(modern.validate({ when: '2024-02-29', tags: ['a'] })).toBeNull();
    expect(modern.validate({ when: '29 Feb 2024', tags: [1] })).toBe('at /when: must match format "date"; at /tags/0: must be string');
    const draft7 = checkedSchema(
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { n: { $ref: '#/definitions/n' } },
        definitions: { n: { type: 'integer' } },
      },
      10_000,
    );
    expect(draft7.validate({ n: 1.5 })).toBe('at /n: must be integer');
  });

  test('many errors are cut to five', () => {
    const schema = checkedSchema({ type: 'array', items: { type: 'integer' } }, 10_000);
    expect(schema.validate(['a', 'b', 'c', 'd', 'e', 'f', 'g'])).toBe(
      'at /0: must be integer; at /1: must be integer; at /2: must be integer; at /3: must be integer; at /4: must be integer; and 2 more',
    );
  });

  test('patterns run in linear time (RE2): a catastrophic pattern on a long hostile string answers', () => {
    const schema = checkedSchema({ type: 'string', pattern: '^(a+)+$' }, 10_000);
    expect(schema.validate(`${'a'.repeat(50_000)}!`)).toBe('at /: must match pattern "^(a+)+$"');
    expect(schema.validate('aaaa')).toBeNull();
  });

  test('the same schema is compiled once', () => {
    const first = checkedSchema({ type: 'object', properties: { once: { type: 'string' } } }, 10_000);
    const second = checkedSchema({ type: 'object', properties: { once: { type: 'string' } } }, 10_000);
    expect(first.validate({ once: 1 })).toBe(second.validate({ once: 1 }));
  });
});
