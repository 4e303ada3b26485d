import { describe, expect, test } from 'bun:test';
import pino from 'pino';
import { z } from 'zod';
import { loadConfig } from './config.ts';
import { definePlugin, type AnyPlugin } from './plugin.ts';
import { PluginRegistry } from './registry.ts';

const calls: string[] = [];
const transform = (name: string, order?: 'pre' | 'normal' | 'post') =>
  definePlugin({
    kind: 'transform',
    name,
    order,
    description: name,
    setup: () => ({
      apply() {
        calls.push(name);
      },
    }),
  }) as unknown as AnyPlugin;
const fetcher = definePlugin({
  kind: 'fetcher',
  name: 'fake',
  description: 'fake fetcher',
  provides: ['fetch:screenshot'],
  options: z.strictObject({ retries: z.number().int().min(0).default(1) }),
  setup: (options) => ({ matches: () => options.retries >= 0, fetch: async () => {} }),
}) as unknown as AnyPlugin;
const dependent = definePlugin({
  kind: 'format',
  name: 'shot',
  description: 'needs the fetcher',
  dependsOn: ['fetcher.fake'],
  provides: ['format:screenshot'],
  setup: () => ({ render: () => '' }),
}) as unknown as AnyPlugin;
const all = [fetcher, dependent, transform('late', 'post'), transform('middle'), transform('early', 'pre')];

const registryWith = (plugins: Record<string, unknown>) =>
  new PluginRegistry(all, loadConfig({ plugins: all, defaultFile: null, env: {}, overrides: { plugins } }));
const context = () => ({
  logger: pino({ level: 'silent' }),
  config: loadConfig({ plugins: [], env: {} }),
  resolve: () => {
    throw new Error('none');
  },
});

describe('plugin registry', () => {
  test('options are parsed by the plugin schema, defaults applied', () => {
    const registry = registryWith({ fetcher: { fake: { retries: 3 } } });
    expect(registry.all().find((p) => p.id === 'fetcher.fake')?.options).toEqual({ retries: 3 });
    expect(
      registryWith({})
        .all()
        .find((p) => p.id === 'fetcher.fake')?.options,
    ).toEqual({ retries: 1 });
  });

  test('bad options fail with the key path', () => {
    expect(() => registryWith({ fetcher: { fake: { retries: -1 } } })).toThrow('Invalid configuration at plugins.fetcher.fake.retries');
    expect(() => registryWith({ fetcher: { fake: { retry: 1 } } })).toThrow('Invalid configuration at plugins.fetcher.fake');
  });

  test('unknown plugins and kinds fail with the key path', () => {
    expect(() => registryWith({ format: { nope: true } })).toThrow(
      'Invalid configuration at plugins.format.nope: unknown plugin format.nope',
    );
    expect(() => registryWith({ widget: { x: true } })).toThrow('Invalid configuration at plugins.widget: unknown plugin kind');
  });

  test('dependsOn is checked at boot', () => {
    expect(() => registryWith({ fetcher: { fake: false } })).toThrow(
      'plugins.format.shot: format.shot depends on fetcher.fake, which is disabled',
    );
    expect(() => registryWith({ fetcher: { fake: false }, format: { shot: false } })).not.toThrow();
  });

  test('transforms run pre, normal, post', async () => {
    const registry = registryWith({});
    await registry.setup(context);
    calls.length = 0;
    for (const p of registry.active('transform')) await p.handler.apply({} as never);
    expect(calls).toEqual(['early', 'middle', 'late']);
  });

  test('a setup failure names the plugin', async () => {
    const broken = definePlugin({
      kind: 'sink',
      name: 'broken',
      description: 'x',
      setup: () => {
        throw new Error('no disk');
      },
    }) as unknown as AnyPlugin;
    const registry = new PluginRegistry([broken], loadConfig({ plugins: [broken], defaultFile: null, env: {} }));
    await expect(registry.setup(context)).rejects.toThrow('Plugin sink.broken failed to start: no disk');
  });

  test('disabled plugins are not set up, are described, and are found as providers', async () => {
    const registry = registryWith({ format: { shot: false } });
    await registry.setup(context);
    expect(registry.active('format')).toHaveLength(0);
    expect(registry.providers('format:screenshot').map((p) => [p.id, p.enabled])).toEqual([['format.shot', false]]);
    const described = registry.describe().find((d) => d.id === 'fetcher.fake')!;
    expect(described.enabled).toBe(true);
    expect(described.options).toMatchObject({ type: 'object', properties: { retries: { type: 'integer', default: 1 } } });
    expect(registry.counts()).toEqual({ total: 5, enabled: 4 });
  });
});

describe('plugins enabled by their required options (enabledBy)', () => {
  const provider = definePlugin({
    kind: 'search',
    name: 'keyed',
    description: 'needs a key',
    enabledBy: ['apiKey'],
    options: z.strictObject({ apiKey: z.string().min(1).optional(), timeoutMs: z.number().int().default(1000) }),
    setup: () => ({ search: async () => ({ hits: [] }), status: () => ({ state: 'unused' as const, endpoint: 'x' }) }),
  }) as unknown as AnyPlugin;
  const load = (env: Record<string, string>, plugins: Record<string, unknown> = {}) =>
    new PluginRegistry([provider], loadConfig({ plugins: [provider], defaultFile: null, env, overrides: { plugins } })).all()[0]!;

  test('off without the option, even with a table of other options', () => {
    expect(load({}).enabled).toBe(false);
    expect(load({}, { search: { keyed: { timeoutMs: 5 } } }).enabled).toBe(false);
  });

  test('setting the option (in a file or the environment) enables it', () => {
    expect(load({}, { search: { keyed: { apiKey: 'k' } } }).enabled).toBe(true);
    const fromEnv = load({ TRAWL_PLUGINS_SEARCH_KEYED_API_KEY: 'k-1' });
    expect([fromEnv.enabled, fromEnv.options]).toEqual([true, { apiKey: 'k-1', timeoutMs: 1000 }]);
  });

  test('TRAWL_DISABLE and enabled = false still win', () => {
    expect(load({ TRAWL_PLUGINS_SEARCH_KEYED_API_KEY: 'k', TRAWL_DISABLE: 'search.keyed' }).enabled).toBe(false);
    expect(load({}, { search: { keyed: { apiKey: 'k', enabled: false } } }).enabled).toBe(false);
  });

  test('enabling it without the option stops the boot naming the key', () => {
    expect(() => load({ TRAWL_ENABLE: 'search.keyed' })).toThrow(
      'Invalid configuration at plugins.search.keyed.apiKey: required to enable search.keyed',
    );
    expect(() => load({}, { search: { keyed: true } })).toThrow('plugins.search.keyed.apiKey: required to enable search.keyed');
  });
});
