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
  return path.reduce<string>(
    (acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${name(String(key))}` : name(String(key))),
    '',
  );
}

/**
 * Issues that check what a value is (its type, its option, which member of a choice it is): on a
 * field that was not sent at all they mean the field is missing, whatever its type (a string, a
 * choice of values, a discriminated union's `kind`).
 */
const VALUE_CHECKS = new Set(['invalid_type', 'invalid_value', 'invalid_union']);

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (node, key) => (node !== null && typeof node === 'object' ? (node as Record<PropertyKey, unknown>)[key] : undefined),
    input,
  );
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
  const details = error.issues.slice(0, 20).map((issue) => ({
    code: issue.code,
    path: issue.path.map((key) => (typeof key === 'number' ? key : name(String(key)))),
    message: issue.message,
  }));
  return new TrawlError('bad_request', describeZodError(error, input, name), { details });
}

/**
 * Where a parsed JSON value holds U+0000 (in a string or a key), as the caller names the field
 * (`include_selectors[2]`), or null. No store keeps it (Postgres text refuses it outright, SQLite
 * would keep it), so it is refused at the door and both databases answer the same.
 */
export function nulField(value: unknown): string | null {
  // A stack, not recursion: a body nested thousands deep cannot overflow it.
  const pending: Array<{ node: unknown; path: PropertyKey[] }> = [{ node: value, path: [] }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { node, path } = next;
    if (typeof node === 'string' && node.includes('\0')) return pathOf(path, asIs) || 'body';
    if (node === null || typeof node !== 'object') continue;
    for (const [key, item] of Object.entries(node).reverse()) {
      // A key holding NUL is named with it written out, so the message itself stays printable.
      if (key.includes('\0')) return pathOf([...path, key.replaceAll('\0', '\\u0000')], asIs);
      pending.push({ node: item, path: [...path, Array.isArray(node) ? Number(key) : key] });
    }
  }
  return null;
}

/** The 400 for text holding U+0000; `field` is named as the caller sent it. */
export const nulRefused = (field: string) => new TrawlError('bad_request', `Invalid field ${field}: contains a NUL character`);
