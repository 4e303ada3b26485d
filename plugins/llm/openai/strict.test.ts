// Strict-mode adaptation: what OpenAI's strict structured output is sent for a schema, and how its
// answer is mapped back to what the original schema expects.
import { describe, expect, test } from 'bun:test';
import { strictProblem } from '../../../test/servers/openai.ts';
import { strictSchema } from './strict.ts';

describe('strictSchema', () => {
  test('optional properties become required and nullable; unsupported keywords are left out', () => {
    const adapted = strictSchema({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 2, default: 'x' },
        kind: { enum: ['a', 'b'] },
        when: { type: 'string', format: 'date' },
        site: { type: 'string', format: 'uri' },
      },
      required: ['name'],
    });
    expect(adapted.strict).toBe(true);
    expect(adapted.schema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string' },
        kind: { anyOf: [{ enum: ['a', 'b'] }, { type: 'null' }] },
        when: { type: ['string', 'null'], format: 'date' },
        site: { type: ['string', 'null'] },
      },
      required: ['name', 'kind', 'when', 'site'],
      additionalProperties: false,
    });
    expect(strictProblem(adapted.schema, 'x')).toBeNull();
    expect(adapted.restore({ name: 'Ann', kind: null, when: '2024-01-02', site: null })).toEqual({ name: 'Ann', when: '2024-01-02' });
  });

  test('nested objects, arrays and $defs are adapted and restored all the way down', () => {
    const adapted = strictSchema({
      type: 'object',
      properties: { items: { type: 'array', items: { $ref: '#/$defs/item' } } },
      $defs: { item: { type: 'object', properties: { id: { type: 'integer' }, note: { type: 'string' } }, required: ['id'] } },
    });
    expect(strictProblem(adapted.schema, 'x')).toBeNull();
    expect(
      adapted.restore({
        items: [
          { id: 1, note: null },
          { id: 2, note: 'n' },
        ],
      }),
    ).toEqual({ items: [{ id: 1 }, { id: 2, note: 'n' }] });
  });

  test('a scalar root is wrapped in {value} and unwrapped', () => {
    const adapted = strictSchema({ type: 'integer' });
    expect(adapted.schema).toEqual({
      type: 'object',
      properties: { value: { type: 'integer' } },
      required: ['value'],
      additionalProperties: false,
    });
    expect(adapted.restore({ value: 42 })).toBe(42);
  });

  test('a map of free keys cannot be strict', () => {
    const adapted = strictSchema({ type: 'object', additionalProperties: { type: 'number' } });
    expect(adapted.strict).toBe(false);
    expect(adapted.schema.additionalProperties).toEqual({ type: 'number' });
  });

  test('the test server refuses what strict mode refuses (so the adapter is what makes it pass)', () => {
    expect(strictProblem({ type: 'object', properties: { a: { type: 'string' } } }, 'x')).toBe(
      "Invalid schema for response_format 'x': In context=(), 'additionalProperties' is required to be supplied and to be false.",
    );
    expect(
      strictProblem(
        { type: 'object', properties: { a: { type: 'string', minLength: 1 } }, required: ['a'], additionalProperties: false },
        'x',
      ),
    ).toBe("Invalid schema for response_format 'x': In context=('properties', 'a'), 'minLength' is not permitted.");
  });
});
