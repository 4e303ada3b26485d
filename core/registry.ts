/**
 * The plugin registry: takes the explicit list of built-ins and the `[plugins]` config, decides
 * which plugins are enabled, parses each one's options with its own schema, checks `dependsOn`,
 * and — at boot — runs every enabled plugin's `setup` once. Every configuration mistake fails boot
 * with a message naming the offending key.
 */
import { z } from 'zod';
import { configInvalid, TrawlError } from './errors.ts';
import { PLUGIN_KINDS, pluginId, type AnyPlugin, type HandlersByKind, type PluginContext, type PluginKind } from './plugin.ts';
import type { PluginEntry, TrawlConfig } from './config-schema.ts';

export interface RegisteredPlugin<K extends PluginKind = PluginKind> {
  id: string;
  definition: AnyPlugin & { kind: K };
  enabled: boolean;
  options: unknown;
  handler?: HandlersByKind[K];
}

export interface PluginDescription {
  id: string;
  kind: PluginKind;
  name: string;
  enabled: boolean;
  description: string;
  provides: readonly string[];
  depends_on: readonly string[];
  options: unknown;
}

const ORDER_RANK = { pre: 0, normal: 1, post: 2 } as const;

function entryOptions(entry: PluginEntry | undefined): { enabled?: boolean; options: Record<string, unknown> } {
  if (entry === undefined) return { options: {} };
  if (typeof entry === 'boolean') return { enabled: entry, options: {} };
  const { enabled, ...options } = entry;
  if (enabled !== undefined && typeof enabled !== 'boolean') throw configInvalid('`enabled` must be true or false');
  return { enabled, options };
}

export class PluginRegistry {
  private readonly plugins: RegisteredPlugin[] = [];
  // Asked on every request (validation, each stage); the answers change only when setup runs.
  private readonly activeByKind = new Map<PluginKind, RegisteredPlugin[]>();
  private readonly providersOf = new Map<string, RegisteredPlugin[]>();

  constructor(all: readonly AnyPlugin[], config: Readonly<TrawlConfig>) {
    const seen = new Set<string>();
    for (const definition of all) {
      const id = pluginId(definition);
      if (seen.has(id)) throw configInvalid(`Plugin ${id} is listed twice in the built-in list`);
      seen.add(id);
    }
    for (const [kind, entries] of Object.entries(config.plugins)) {
      if (!PLUGIN_KINDS.includes(kind as PluginKind))
        throw configInvalid(`Invalid configuration at plugins.${kind}: unknown plugin kind (known: ${PLUGIN_KINDS.join(', ')})`);
      for (const name of Object.keys(entries)) {
        if (!seen.has(`${kind}.${name}`))
          throw configInvalid(`Invalid configuration at plugins.${kind}.${name}: unknown plugin ${kind}.${name}`);
      }
    }
    for (const definition of all) {
      const key = `plugins.${definition.kind}.${definition.name}`;
      let parsed: ReturnType<typeof entryOptions>;
      try {
        parsed = entryOptions(config.plugins[definition.kind]?.[definition.name]);
      } catch (err) {
        throw configInvalid(`Invalid configuration at ${key}: ${(err as Error).message}`);
      }
      const schema = definition.options ?? z.strictObject({});
      const result = schema.safeParse(parsed.options);
      if (!result.success) {
        const issue = result.error.issues[0]!;
        const at = [key, ...issue.path.map(String)].join('.');
        throw configInvalid(`Invalid configuration at ${at}: ${issue.message}`);
      }
      // A plugin that needs settings (a provider's URL or key) is on exactly when they are set.
      const missing = (definition.enabledBy ?? []).filter((option) => (result.data as Record<string, unknown>)?.[option] === undefined);
      const enabled = parsed.enabled ?? (definition.enabledBy ? missing.length === 0 : (definition.enabledByDefault ?? true));
      if (enabled && missing.length)
        throw configInvalid(`Invalid configuration at ${key}.${missing[0]}: required to enable ${pluginId(definition)}`);
      this.plugins.push({ id: pluginId(definition), definition, enabled, options: result.data });
    }
    for (const plugin of this.plugins.filter((p) => p.enabled)) {
      for (const dep of plugin.definition.dependsOn ?? []) {
        const target = this.plugins.find((p) => p.id === dep);
        if (!target)
          throw configInvalid(
            `Invalid configuration at plugins.${plugin.definition.kind}.${plugin.definition.name}: depends on unknown plugin ${dep}`,
          );
        if (!target.enabled)
          throw configInvalid(
            `Invalid configuration at plugins.${plugin.definition.kind}.${plugin.definition.name}: ${plugin.id} depends on ${dep}, which is disabled`,
          );
      }
    }
  }

  /**
   * Runs `setup` of every enabled plugin, in list order; with `kinds`, only of those kinds (a
   * content worker sets up documents, transforms and formats, which need no services).
   */
  async setup(context: (plugin: RegisteredPlugin) => PluginContext, kinds?: readonly PluginKind[]): Promise<void> {
    this.activeByKind.clear();
    for (const plugin of this.plugins) {
      if (!plugin.enabled || (kinds && !kinds.includes(plugin.definition.kind))) continue;
      try {
        plugin.handler = await plugin.definition.setup(plugin.options, context(plugin));
      } catch (err) {
        if (err instanceof TrawlError) throw err;
        throw configInvalid(`Plugin ${plugin.id} failed to start: ${(err as Error).message}`);
      }
    }
  }

  all(): readonly RegisteredPlugin[] {
    return this.plugins;
  }

  /** Enabled, set-up plugins of one kind, in run order (transforms sorted by `order`, stable). */
  active<K extends PluginKind>(kind: K): Array<RegisteredPlugin<K> & { handler: HandlersByKind[K] }> {
    type Active = Array<RegisteredPlugin<K> & { handler: HandlersByKind[K] }>;
    const cached = this.activeByKind.get(kind);
    if (cached) return cached as Active;
    const list = this.plugins.filter((p) => p.enabled && p.handler && p.definition.kind === kind) as Active;
    const ordered =
      kind !== 'transform'
        ? list
        : list
            .map((p, index) => ({ p, index }))
            .sort(
              (a, b) => ORDER_RANK[a.p.definition.order ?? 'normal'] - ORDER_RANK[b.p.definition.order ?? 'normal'] || a.index - b.index,
            )
            .map(({ p }) => p);
    // Before setup no handler exists yet: nothing to remember.
    if (ordered.length) this.activeByKind.set(kind, ordered);
    return ordered;
  }

  /** Every plugin (enabled or not) that declares a capability such as `format:markdown`. */
  providers(capability: string): RegisteredPlugin[] {
    let found = this.providersOf.get(capability);
    if (!found) this.providersOf.set(capability, (found = this.plugins.filter((p) => p.definition.provides?.includes(capability))));
    return found;
  }

  /** All values of a capability prefix among known plugins, e.g. every format name. */
  capabilityNames(prefix: string): string[] {
    const names = this.plugins.flatMap((p) =>
      (p.definition.provides ?? []).filter((c) => c.startsWith(`${prefix}:`)).map((c) => c.slice(prefix.length + 1)),
    );
    return [...new Set(names)];
  }

  counts(): { total: number; enabled: number } {
    return { total: this.plugins.length, enabled: this.plugins.filter((p) => p.enabled).length };
  }

  describe(): PluginDescription[] {
    return this.plugins.map((p) => ({
      id: p.id,
      kind: p.definition.kind,
      name: p.definition.name,
      enabled: p.enabled,
      description: p.definition.description,
      provides: p.definition.provides ?? [],
      depends_on: p.definition.dependsOn ?? [],
      options: z.toJSONSchema(p.definition.options ?? z.strictObject({}), { io: 'input', unrepresentable: 'any' }),
    }));
  }
}
