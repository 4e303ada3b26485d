/**
 * JSON Schemas from requests and from models: checked before use (a JSON object, bounded in size
 * and nesting, valid against its draft's meta-schema, compilable) and compiled once into a
 * validator. Ajv does the JSON Schema work (draft 2020-12, or draft-07 when `$schema` says so,
 * formats from ajv-formats); `pattern` and `patternProperties` run on RE2 (re2js), whose matching
 * time is linear, because the text they test comes from a model that read a page anyone can write.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { RE2JS } from 're2js';
import { badRequest } from '../errors.ts';
import type { JsonSchema } from './provider.ts';

/** Nesting of a schema document (objects and arrays); real schemas stay far below. */
const MAX_DEPTH = 64;
const MAX_NODES = 20_000;
const MAX_ERRORS_SHOWN = 5;
/** Compiled validators kept (compiling costs milliseconds; requests often repeat a schema). */
const CACHE_SIZE = 200;

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-0[67]\/schema#?$/;
const DRAFT_2020 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

/** Ajv's `code.regExp`: a RegExp-like whose `toString` is unique per pattern (Ajv caches by it). */
function re2RegExp(pattern: string, flags: string) {
  const compiled = RE2JS.compile(pattern, flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
  return { test: (text: string) => compiled.matcher(text).find(), toString: () => `/${pattern}/${flags}` };
}
re2RegExp.code = 're2';

const addFormats = formatsPlugin as unknown as (ajv: Ajv) => void;
// `strict: false`: keywords Ajv does not know (`definitions` under 2020-12, vendor notes) are annotations, as the standard says.
const options = { strict: false, allErrors: true, code: { regExp: re2RegExp as never } };
let engines: { draft7: Ajv; draft2020: Ajv } | undefined;
function engine(schema: JsonSchema, field: string): Ajv {
  if (!engines) {
    engines = { draft7: new Ajv(options), draft2020: new Ajv2020(options) };
    addFormats(engines.draft7);
    addFormats(engines.draft2020);
  }
  const declared = schema.$schema;
  if (declared === undefined || (typeof declared === 'string' && DRAFT_2020.test(declared))) return engines.draft2020;
  if (typeof declared === 'string' && DRAFT_07.test(declared)) return engines.draft7;
  throw badRequest(
    `Invalid field ${field}: $schema ${JSON.stringify(declared).slice(0, 100)} is not supported (use JSON Schema draft 2020-12 or draft-07)`,
  );
}

/** "at /items/0/price: must be number" lines, at most a few. */
export function describeErrors(errors: readonly Pick<ErrorObject, 'instancePath' | 'message'>[] | null | undefined): string {
  const list = (errors ?? []).slice(0, MAX_ERRORS_SHOWN).map((e) => `at ${e.instancePath || '/'}: ${e.message ?? 'invalid'}`);
  const more = (errors?.length ?? 0) - list.length;
  return list.join('; ') + (more > 0 ? `; and ${more} more` : '');
}

function checkShape(value: unknown, field: string): void {
  let nodes = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > MAX_DEPTH) throw badRequest(`Invalid field ${field}: nested deeper than ${MAX_DEPTH} levels`);
    if (++nodes > MAX_NODES) throw badRequest(`Invalid field ${field}: more than ${MAX_NODES} objects and arrays`);
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
}

const cache = new Map<string, ValidateFunction>();

function compile(schema: JsonSchema, key: string, field: string): ValidateFunction {
  const ajv = engine(schema, field);
  if (!ajv.validateSchema(schema)) throw badRequest(`Invalid field ${field}: not a valid JSON Schema: ${describeErrors(ajv.errors)}`);
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (err) {
    throw badRequest(`Invalid field ${field}: the JSON Schema cannot be used: ${(err as Error).message.slice(0, 300)}`);
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, validate);
  return validate;
}

/**
 * The schema checked and compiled, or a 400 naming `field`: a JSON object of at most `maxBytes`
 * serialized, nesting and size bounded, valid for its draft, every `$ref` resolvable, every
 * pattern RE2 syntax.
 */
export function checkedSchema(
  value: unknown,
  maxBytes: number,
  field = 'schema',
): { schema: JsonSchema; validate: (data: unknown) => string | null } {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw badRequest(`Invalid field ${field}: must be a JSON Schema object`);
  const key = JSON.stringify(value);
  const bytes = Buffer.byteLength(key);
  if (bytes > maxBytes) throw badRequest(`Invalid field ${field}: ${bytes} bytes, at most ${maxBytes} (llm.maxSchemaBytes)`);
  const schema = value as JsonSchema;
  let validate = cache.get(key);
  if (validate) {
    // Recently used: keep it at the young end of the cache.
    cache.delete(key);
    cache.set(key, validate);
  } else {
    checkShape(schema, field);
    validate = compile(schema, key, field);
  }
  const run = validate;
  return { schema, validate: (data) => (run(data) ? null : describeErrors(run.errors)) };
}
