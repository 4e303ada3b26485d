// The one-line validation messages: a field not sent is "Missing required field" whatever its type.
import { expect, test } from 'bun:test';
import { z } from 'zod';
import { describeZodError } from './validation.ts';

const message = (schema: z.ZodType, input: unknown) => describeZodError(schema.safeParse(input).error!, input);

test("a required field not sent is missing, whether a string, a choice or a union's discriminator", () => {
  expect(message(z.object({ url: z.string() }), {})).toBe('Missing required field: url');
  expect(message(z.object({ kind: z.enum(['profile', 'search']) }), {})).toBe('Missing required field: kind');
  const monitor = z.discriminatedUnion('kind', [z.object({ kind: z.literal('profile') }), z.object({ kind: z.literal('search') })]);
  expect(message(monitor, {})).toBe('Missing required field: kind');
  expect(message(z.object({ where: z.object({ mode: z.union([z.literal('a'), z.number()]) }) }), { where: {} })).toBe(
    'Missing required field: where.mode',
  );
});

test('a field sent with a wrong value still says what is wrong with it', () => {
  expect(message(z.object({ kind: z.enum(['profile', 'search']) }), { kind: 'list' })).toBe(
    'Invalid field kind: Invalid option: expected one of "profile"|"search"',
  );
  expect(message(z.object({ url: z.string() }), { url: 3 })).toBe('Invalid field url: Invalid input: expected string, received number');
});
