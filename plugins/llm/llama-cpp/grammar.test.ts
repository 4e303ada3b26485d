// The schema node-llama-cpp's grammar generator is given: its subset, with what it lacks left out
// and what it cannot express as "any JSON" (never its reading of an unknown part: null only).
import { expect, test } from 'bun:test';
import { ANY_JSON, grammarSchema } from './grammar.ts';

test('the supported subset is kept; anyOf, definitions, type lists and missing types are translated', () => {
  expect(
    grammarSchema({
      type: 'object',
      properties: {
        name: { type: 'string', maxLength: 40, pattern: '^[A-Z]' },
        when: { type: 'string', format: 'date' },
        site: { type: 'string', format: 'uri' },
        size: { anyOf: [{ type: 'number', minimum: 0 }, { type: 'null' }] },
        tags: { items: { enum: ['a', 'b'] }, maxItems: 3 },
        owner: { $ref: '#/definitions/person' },
        either: { type: ['object', 'null'], properties: { x: { type: 'integer' } } },
        anything: {},
        free: { type: 'object' },
      },
      definitions: { person: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    }),
  ).toEqual({
    type: 'object',
    properties: {
      name: { type: 'string', maxLength: 40 },
      when: { type: 'string', format: 'date' },
      site: { type: 'string' },
      size: { oneOf: [{ type: 'number' }, { type: 'null' }] },
      tags: { type: 'array', maxItems: 3, items: { enum: ['a', 'b'] } },
      owner: { $ref: '#/$defs/person' },
      either: { oneOf: [{ type: 'object', properties: { x: { type: 'integer' } }, additionalProperties: false }, { type: 'null' }] },
      anything: ANY_JSON,
      free: { type: 'object', properties: {}, additionalProperties: true },
    },
    additionalProperties: false,
    $defs: { person: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false } },
  });
});

test('the shared "any JSON" value is never changed by a root with definitions', () => {
  const root = grammarSchema({ $defs: { a: { type: 'string' } } });
  expect(root.$defs).toEqual({ a: { type: 'string' } });
  expect(ANY_JSON.$defs).toBeUndefined();
});
