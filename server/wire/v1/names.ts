/**
 * How /v1 names things: the one place where internal camelCase names become the /v1 snake_case
 * ones and back, for request fields (including those plugins declare), metadata and result
 * fields. `timeout` is the one /v1 name that is not the snake_case of its internal name.
 */
import { z } from 'zod';
import type { FieldNamer } from '../../../core/plugin.ts';

const TO_V1: Readonly<Record<string, string>> = { timeoutMs: 'timeout' };
const FROM_V1: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(TO_V1).map(([internal, v1]) => [v1, internal]));

/** Names are few and asked for on every request and result: each is converted once. */
function remembered(convert: (name: string) => string): (name: string) => string {
  const known = new Map<string, string>();
  return (name) => {
    let converted = known.get(name);
    if (converted === undefined) {
      converted = convert(name);
      // Keys of user data (attribute values, extraction fields) are not names: keep the map bounded.
      if (known.size < 10_000) known.set(name, converted);
    }
    return converted;
  };
}

export const toV1Name = remembered((name) => TO_V1[name] ?? name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
export const fromV1Name = remembered((name) => FROM_V1[name] ?? name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()));

/** Names a field path in messages: `includeSelectors[0]` → `include_selectors[0]`. */
export const v1Field: FieldNamer = remembered((path) => path.replace(/^[A-Za-z0-9]+/, toV1Name));

/** The keys of one object renamed (values untouched: they may be user data). */
export function renameKeys<T = Record<string, unknown>>(record: object, rename: (key: string) => string): T {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [rename(key), value])) as T;
}

/** A strict object schema with the same field schemas under their /v1 names (messages then name /v1 fields). */
export function v1Object(shape: Readonly<Record<string, z.ZodType>>) {
  return z.strictObject(renameKeys<Record<string, z.ZodType>>(shape, toV1Name));
}
