/**
 * Turns zod validation failures into the one-line messages the API promises, e.g.
 * `Missing required field: url` or `Invalid field formats[1]: expected string`.
 */
import type { z } from 'zod';
import { TrawlError } from './errors.ts';

/** How the caller names one field; messages speak the caller's wire format. */
type Namer = (field: string) => string;
const asIs: Namer = (field) => field;

function pathOf(path: readonly PropertyKey[], name: Namer): string {
  return path.reduce<string>((acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${name(String(key))}` : name(String(key))), '');
}

/**
 * Issues that check what a value is (its type, its option, which member of a choice it is): on a
 * field that was not sent at all they mean the field is missing, whatever its type (a string, a
 * choice of values, a discriminated union's `kind`).
 */
const VALUE_CHECKS = new Set(['invalid_type', 'invalid_value', 'invalid_union']);

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined), input);
}

/**
 * `input` is what was validated; it tells a missing field from one of the wrong type. `name`
 * renames each field of the path (the input was validated under internal names).
 */
export function describeZodError(error: z.ZodError, input: unknown, name: Namer = asIs): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request';
  const field = pathOf(issue.path, name);
  if (VALUE_CHECKS.has(issue.code) && valueAt(input, issue.path) === undefined && field) {
    return `Missing required field: ${field}`;
  }
  if (issue.code === 'unrecognized_keys') {
    const keys = (issue as { keys: string[] }).keys.map((k) => (field ? `${field}.${name(k)}` : name(k)));
    return `Unknown field${keys.length > 1 ? 's' : ''}: ${keys.join(', ')}`;
  }
  return field ? `Invalid field ${field}: ${issue.message}` : issue.message;
}

/** Parses `input` with `schema`, throwing a 400 TrawlError with a precise message on failure. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidInput(result.error, input);
  return result.data;
}

/** A 400 with the one-line message and, as details, every issue (path, code, message). */
export function invalidInput(error: z.ZodError, input: unknown, name: Namer = asIs): TrawlError {
  const details = error.issues.slice(0, 20).map((issue) => ({ code: issue.code, path: issue.path.map((key) => (typeof key === 'number' ? key : name(String(key)))), message: issue.message }));
  return new TrawlError('bad_request', describeZodError(error, input, name), { details });
}
