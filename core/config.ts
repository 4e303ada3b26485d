/**
 * Loads the configuration: `config/default.toml` < the file named by `TRAWL_CONFIG` < environment
 * variables < explicit overrides (start options, tests); feature sections are validated by the
 * features passed in. Environment names are derived from key
 * paths (`fetch.allowPrivateNetwork` → `TRAWL_FETCH_ALLOW_PRIVATE_NETWORK`), plus `TRAWL_ENABLE` /
 * `TRAWL_DISABLE` lists of plugin ids and the few top-level switches. The result is frozen.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';
import { configInvalid } from './errors.ts';
import { buildConfigSchema, type TrawlConfig } from './config-schema.ts';
import { configProblem, rememberSources, sourceOf, type ConfigSources } from './config-sources.ts';
import type { AnyFeature } from './feature.ts';
import { pluginId, type AnyPlugin } from './plugin.ts';

type Tree = Record<string, unknown>;
const DEFAULT_FILE = new URL('../config/default.toml', import.meta.url).pathname;

/** Top-level switches that do not follow the derived-name rule. */
const ALIASES: Record<string, string[]> = {
  TRAWL_API_KEY: ['apiKey'],
  TRAWL_ADMIN_KEY: ['adminKey'],
  PORT: ['server', 'port'],
  DATABASE_URL: ['storage', 'databaseUrl'],
  TRAWL_DATA_DIR: ['storage', 'dataDir'],
};

export interface LoadConfigOptions {
  plugins: readonly AnyPlugin[];
  /** The feature list (core/features/index.ts); each one's section is validated by its schema. */
  features?: readonly AnyFeature[];
  env?: Record<string, string | undefined>;
  /** Highest precedence: start options and test settings, as a partial config tree. */
  overrides?: Tree;
  /** How the user typed the overrides that came from start options, by dotted key (`server.port` → `--port`), for messages. */
  optionNames?: Readonly<Record<string, string>>;
  /** Skip `config/default.toml` (tests of the loader itself). */
  defaultFile?: string | null;
  warnings?: string[];
}

const isTree = (v: unknown): v is Tree => typeof v === 'object' && v !== null && !Array.isArray(v);

export function deepMerge(base: Tree, over: Tree): Tree {
  const out: Tree = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    const prev = out[key];
    out[key] = isTree(prev) && isTree(value) ? deepMerge(prev, value) : value;
  }
  return out;
}

export function envName(path: readonly string[]): string {
  return `TRAWL_${path
    .map((s) =>
      s
        .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
        .replace(/-/g, '_')
        .toUpperCase(),
    )
    .join('_')}`;
}

function readToml(file: string, label: string): Tree {
  if (!existsSync(file)) throw configInvalid(`${label} ${file} does not exist`);
  try {
    return parseToml(readFileSync(file, 'utf8')) as Tree;
  } catch (err) {
    // The parser's message carries a multi-line excerpt; its first line and the position say it in one.
    const { message, line, column } = err as Error & { line?: number; column?: number };
    const at = line === undefined ? '' : ` at line ${line}, column ${column}`;
    throw configInvalid(`${label} ${file} is not valid TOML: ${message.split('\n')[0]}${at}`);
  }
}

/** Every value of a TOML file, by dotted key: the file is where those were set. */
function recordFile(sources: ConfigSources, node: Tree, file: string, prefix: string[] = []): void {
  for (const [key, value] of Object.entries(node)) {
    if (isTree(value)) recordFile(sources, value, file, [...prefix, key]);
    else sources.set([...prefix, key].join('.'), { kind: 'file', label: file, deep: Array.isArray(value) });
  }
}

/** A schema with its optional/default wrappers taken off. */
function unwrapped(shape: unknown): unknown {
  let inner = shape;
  while (
    inner instanceof z.ZodOptional ||
    inner instanceof z.ZodNullable ||
    inner instanceof z.ZodDefault ||
    inner instanceof z.ZodPrefault
  )
    inner = inner.unwrap();
  return inner;
}

/**
 * Every key path a variable may set: core leaves, plugin switches and plugin option keys; `text`
 * gets the keys whose schema takes text, so `TRAWL_…_PASSWORD=12345` stays text though no default
 * says so.
 */
function knownPaths(tree: Tree, plugins: readonly AnyPlugin[], schema: z.ZodObject, text: Set<string>): string[][] {
  const paths: string[][] = [];
  const add = (path: string[], shape: unknown) => {
    paths.push(path);
    if (unwrapped(shape) instanceof z.ZodString) text.add(path.join('.'));
  };
  const walk = (node: Tree, prefix: string[]) => {
    for (const [key, value] of Object.entries(node)) {
      if (prefix.length === 0 && key === 'plugins') continue;
      if (isTree(value) && !['headers', 'resolve'].includes(key)) walk(value, [...prefix, key]);
      else paths.push([...prefix, key]);
    }
  };
  walk(tree, []);
  // Keys of the sections' schemas, tables within sections included (`notify.smtp.host`).
  const schemaPaths = (shape: unknown, prefix: string[]) => {
    const inner = unwrapped(shape);
    if (!(inner instanceof z.ZodObject)) return;
    for (const [key, value] of Object.entries(inner.shape)) {
      add([...prefix, key], value);
      schemaPaths(value, [...prefix, key]);
    }
  };
  for (const [section, shape] of Object.entries(schema.shape)) if (section !== 'plugins') schemaPaths(shape, [section]);
  for (const plugin of plugins) {
    const base = ['plugins', plugin.kind, plugin.name];
    paths.push(base);
    if (plugin.options instanceof z.ZodObject) for (const [key, value] of Object.entries(plugin.options.shape)) add([...base, key], value);
  }
  return paths;
}

/** Reads an environment value as the type the current value has (boolean, number, JSON, string). */
function coerce(raw: string, current: unknown): unknown {
  const text = raw.trim();
  if (typeof current === 'string') return raw;
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (/^[[{]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {}
  }
  return raw;
}

function getPath(tree: Tree, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => (isTree(node) ? node[key] : undefined), tree);
}

function setPath(tree: Tree, path: readonly string[], value: unknown): void {
  let node = tree;
  for (const key of path.slice(0, -1)) {
    // A plugin switch (`true`/`false`) becomes a table once one of its options is set.
    if (!isTree(node[key])) node[key] = node[key] === false ? { enabled: false } : {};
    node = node[key] as Tree;
  }
  const last = path[path.length - 1]!;
  const prev = node[last];
  // Enabling a plugin that already has an options table keeps the table.
  node[last] = value === true && isTree(prev) ? { ...prev, enabled: true } : value;
}

/** An environment value that is missing, empty or only white space sets nothing. */
export const isUnset = (raw: string | undefined): raw is undefined => raw === undefined || raw.trim() === '';

function applyEnv(
  tree: Tree,
  env: Record<string, string | undefined>,
  plugins: readonly AnyPlugin[],
  schema: z.ZodObject,
  warnings: string[],
  sources: ConfigSources,
): void {
  const byName = new Map<string, string[]>();
  const text = new Set<string>();
  for (const path of knownPaths(tree, plugins, schema, text)) byName.set(envName(path), path);
  for (const [name, path] of Object.entries(ALIASES)) byName.set(name, path);
  for (const [name, raw] of Object.entries(env)) {
    // Empty means unset: compose files and shells export `NAME=` for variables they only mention.
    if (isUnset(raw) || name === 'TRAWL_CONFIG' || name === 'TRAWL_ENABLE' || name === 'TRAWL_DISABLE') continue;
    const path = byName.get(name);
    if (path) {
      const value = coerce(raw, getPath(tree, path) ?? (text.has(path.join('.')) ? '' : undefined));
      setPath(tree, path, value);
      sources.set(path.join('.'), { kind: 'env', label: name, deep: typeof value === 'object' });
    } else if (name.startsWith('TRAWL_')) warnings.push(`Environment variable ${name} matches no configuration key; ignored`);
  }
  const known = new Set(plugins.map(pluginId));
  for (const [name, value] of [
    ['TRAWL_ENABLE', true],
    ['TRAWL_DISABLE', false],
  ] as const) {
    for (const id of (env[name] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      if (!known.has(id)) throw configInvalid(`${name}: unknown plugin id "${id}" (known: ${[...known].join(', ')})`);
      const [kind, plugin] = id.split('.') as [string, string];
      setPath(tree, ['plugins', kind, plugin], value);
      sources.set(`plugins.${id}`, { kind: 'env', label: name, deep: false });
    }
  }
}

/**
 * The shipped defaults document every built-in feature and format; a boot with fewer (tests, tools)
 * ignores there the sections of absent features and the `[credits]` units nothing installed
 * declares. Elsewhere an unknown section or unit is still an error.
 */
function ownSections(tree: Tree, schema: z.ZodObject): Tree {
  const own = Object.fromEntries(Object.entries(tree).filter(([key]) => key in schema.shape));
  const units = unwrapped(schema.shape.credits);
  if (isTree(own.credits) && units instanceof z.ZodObject)
    own.credits = Object.fromEntries(Object.entries(own.credits).filter(([unit]) => unit in units.shape));
  return own;
}

function deepFreeze<T>(value: T): T {
  if (isTree(value) || Array.isArray(value)) {
    for (const inner of Object.values(value as object)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

export function loadConfig(options: LoadConfigOptions): Readonly<TrawlConfig> {
  const env = options.env ?? process.env;
  const warnings = options.warnings ?? [];
  const defaultFile = options.defaultFile === undefined ? DEFAULT_FILE : options.defaultFile;
  const schema = buildConfigSchema(options.features ?? [], options.plugins);
  const sources: ConfigSources = new Map();
  let tree: Tree = defaultFile ? ownSections(readToml(defaultFile, 'default config'), schema) : {};
  if (!isUnset(env.TRAWL_CONFIG)) {
    const file = readToml(env.TRAWL_CONFIG, 'TRAWL_CONFIG file');
    recordFile(sources, file, env.TRAWL_CONFIG);
    tree = deepMerge(tree, file);
  }
  tree = structuredClone(tree);
  applyEnv(tree, env, options.plugins, schema, warnings, sources);
  if (options.overrides) {
    tree = deepMerge(tree, options.overrides);
    for (const [key, label] of Object.entries(options.optionNames ?? {})) {
      if (getPath(options.overrides, key.split('.')) !== undefined) sources.set(key, { kind: 'option', label, deep: false });
    }
  }
  const parsed = schema.safeParse(tree);
  if (!parsed.success) throw schemaProblem(parsed.error.issues[0]!, sources);
  const config = deepFreeze(parsed.data as TrawlConfig);
  rememberSources(config, sources);
  return config;
}

/** The first schema issue as one line, naming the variable, file key or option that set the value. */
function schemaProblem(issue: z.core.$ZodIssue, sources: ConfigSources) {
  const key = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    // A key nobody knows was written in a file or given as an option: name that key itself.
    const unknownKey = [key, issue.keys[0]].filter(Boolean).join('.');
    if (sourceOf(sources, unknownKey)) return configProblem(unknownKey, 'unknown key', sources);
  }
  const source = sourceOf(sources, key);
  // A variable is always text: "received string" would only confuse; say what text is expected.
  if (source?.kind === 'env' && issue.code === 'invalid_type' && (issue.expected === 'boolean' || issue.expected === 'number')) {
    return configProblem(key, issue.expected === 'boolean' ? 'expected true or false' : 'expected a number', sources);
  }
  return configProblem(key, issue.message, sources);
}
