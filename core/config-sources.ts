/**
 * Where each configuration value came from, so that a bad one is reported the way the user wrote
 * it — the environment variable, the key in the TRAWL_CONFIG file, the start option — and not
 * only as the internal key path, which a user who set `TRAWL_FETCH_ALLOW_PRIVATE_NETWORK` never
 * saw. The loader records the sources; errors of the form "Invalid configuration at <key>: …"
 * (raised by the loader, the plugin registry and the features' services) are attributed with them.
 */
import { configInvalid, TrawlError } from './errors.ts';

export interface ConfigSource {
  kind: 'env' | 'file' | 'option';
  /** The variable's name, the file's path or the option as typed (`--port`). */
  label: string;
  /** The value set was a table or a list (JSON in a variable): problems inside it are its too. */
  deep: boolean;
}

/** Dotted key path → where the value at that path was set. */
export type ConfigSources = Map<string, ConfigSource>;

const recorded = new WeakMap<object, ConfigSources>();

export function rememberSources(config: object, sources: ConfigSources): void {
  recorded.set(config, sources);
}

/** `search.providers[1]` (as messages write list items) → `search.providers.1`. */
const dotted = (key: string) => key.replace(/\[(\d+)\]/g, '.$1');

/** The source that set `key`, or set a table or list that holds it. */
export function sourceOf(sources: ConfigSources, key: string): ConfigSource | undefined {
  const parts = dotted(key).split('.');
  for (let n = parts.length; n > 0; n--) {
    const source = sources.get(parts.slice(0, n).join('.'));
    if (source && (n === parts.length || source.deep)) return source;
  }
  return undefined;
}

function where(source: ConfigSource, key: string): string {
  return source.kind === 'file' ? `${key} in ${source.label}` : `${source.label} (${key})`;
}

/** The one-line configuration error for `key`, naming where the user set it when we know. */
export function configProblem(key: string, reason: string, sources?: ConfigSources): TrawlError {
  const source = key && sources ? sourceOf(sources, key) : undefined;
  return configInvalid(
    source ? `Invalid configuration: ${where(source, key)}: ${reason}` : `Invalid configuration at ${key || '(root)'}: ${reason}`,
  );
}

const UNATTRIBUTED = /^Invalid configuration at (\S+?): ([\s\S]*)$/;

/**
 * A configuration error raised after loading (by the registry or a feature's service), attributed
 * to where `config`'s loader saw the value set. Anything else comes back unchanged.
 */
export function attributeConfigError(err: unknown, config: object): unknown {
  const sources = recorded.get(config);
  if (!sources || !(err instanceof TrawlError) || err.code !== 'config_invalid') return err;
  const match = UNATTRIBUTED.exec(err.message);
  if (!match || !sourceOf(sources, match[1]!)) return err;
  return configProblem(match[1]!, match[2]!, sources);
}
