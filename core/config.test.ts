import { describe, expect, test } from 'bun:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { envName, loadConfig } from './config.ts';
import { attributeConfigError } from './config-sources.ts';
import { configInvalid } from './errors.ts';
import { definePlugin, type AnyPlugin } from './plugin.ts';

const demo = definePlugin({
  kind: 'format',
  name: 'demo-format',
  description: 'test plugin',
  provides: ['format:demo'],
  options: z.strictObject({ maxItems: z.number().int().default(5), label: z.string().default('x') }),
  setup: () => ({ render: () => 'demo' }),
}) as unknown as AnyPlugin;
const other = definePlugin({ kind: 'sink', name: 'other', description: 'test', setup: () => ({ write() {} }) }) as unknown as AnyPlugin;
const plugins = [demo, other];

function tomlFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'trawl-config-'));
  const file = join(dir, 'trawl.toml');
  writeFileSync(file, text);
  return file;
}

describe('config precedence', () => {
  test('defaults come from config/default.toml', () => {
    const config = loadConfig({ plugins: [], env: {} });
    expect(config.server.port).toBe(3000);
    expect(config.fetch.allowPrivateNetwork).toBe(false);
    expect(config.plugins.format?.markdown).toBe(true);
  });

  test('file < environment < overrides', () => {
    const file = tomlFile('[fetch]\ntimeoutMs = 1111\nmaxRedirects = 3\n[server]\nport = 4000\n');
    const config = loadConfig({
      plugins: [],
      env: { TRAWL_CONFIG: file, TRAWL_FETCH_TIMEOUT_MS: '2222', TRAWL_SERVER_PORT: '5000' },
      overrides: { server: { port: 6000 } },
    });
    expect(config.fetch.maxRedirects).toBe(3); // file over default
    expect(config.fetch.timeoutMs).toBe(2222); // env over file
    expect(config.server.port).toBe(6000); // override over env
  });

  test('derived environment names and their types', () => {
    expect(envName(['fetch', 'allowPrivateNetwork'])).toBe('TRAWL_FETCH_ALLOW_PRIVATE_NETWORK');
    expect(envName(['plugins', 'transform', 'main-content'])).toBe('TRAWL_PLUGINS_TRANSFORM_MAIN_CONTENT');
    const config = loadConfig({
      plugins: [],
      env: { TRAWL_FETCH_ALLOW_PRIVATE_NETWORK: 'true', TRAWL_FETCH_USER_AGENT: '12345', TRAWL_FETCH_HEADERS: '{"x-a":"1"}' },
    });
    expect(config.fetch.allowPrivateNetwork).toBe(true);
    expect(config.fetch.userAgent).toBe('12345'); // a string setting stays a string
    expect(config.fetch.headers).toEqual({ 'x-a': '1' });
  });

  test('top-level switches: PORT, DATABASE_URL, TRAWL_DATA_DIR, TRAWL_API_KEY', () => {
    const config = loadConfig({
      plugins: [],
      env: { PORT: '8080', DATABASE_URL: 'postgres://x/y', TRAWL_DATA_DIR: '/tmp/d', TRAWL_API_KEY: 'k' },
    });
    expect(config.server.port).toBe(8080);
    expect(config.storage.databaseUrl).toBe('postgres://x/y');
    expect(config.storage.dataDir).toBe('/tmp/d');
    expect(config.apiKey).toBe('k');
  });

  test('an empty or blank variable is unset, whatever key it names', () => {
    const config = loadConfig({
      plugins,
      env: {
        DATABASE_URL: '',
        PORT: ' ',
        TRAWL_API_KEY: '',
        TRAWL_CONFIG: '',
        TRAWL_FETCH_TIMEOUT_MS: '',
        TRAWL_ENABLE: '',
        TRAWL_DISABLE: ' ',
        TRAWL_PLUGINS_FORMAT_DEMO_FORMAT_LABEL: '',
      },
    });
    const defaults = loadConfig({ plugins, env: {} });
    expect(config).toEqual(defaults);
    expect(config.storage.databaseUrl).toBeUndefined();
  });

  test('plugin switches and options from the environment', () => {
    const config = loadConfig({
      plugins,
      defaultFile: null,
      env: { TRAWL_PLUGINS_FORMAT_DEMO_FORMAT_MAX_ITEMS: '9', TRAWL_PLUGINS_SINK_OTHER: 'false' },
    });
    expect(config.plugins.format?.['demo-format']).toEqual({ maxItems: 9 });
    expect(config.plugins.sink?.other).toBe(false);
  });

  test('TRAWL_ENABLE and TRAWL_DISABLE take plugin ids', () => {
    const config = loadConfig({ plugins, defaultFile: null, env: { TRAWL_DISABLE: 'format.demo-format', TRAWL_ENABLE: 'sink.other' } });
    expect(config.plugins.format?.['demo-format']).toBe(false);
    expect(config.plugins.sink?.other).toBe(true);
    expect(() => loadConfig({ plugins, defaultFile: null, env: { TRAWL_ENABLE: 'format.nope' } })).toThrow(
      'TRAWL_ENABLE: unknown plugin id "format.nope"',
    );
  });

  test('unknown TRAWL_ variables are reported, not silently used', () => {
    const warnings: string[] = [];
    loadConfig({ plugins: [], env: { TRAWL_FETCH_TIMEOUTMS: '5' }, warnings });
    expect(warnings[0]).toContain('TRAWL_FETCH_TIMEOUTMS');
  });

  test('the result is frozen', () => {
    const config = loadConfig({ plugins: [], env: {} });
    expect(() => {
      (config.fetch as { timeoutMs: number }).timeoutMs = 1;
    }).toThrow();
  });
});

describe('config boot failures name the variable, file key or option the user wrote', () => {
  test('a bad value: the variable, the key set by a start option, or the key when no source is known', () => {
    expect(() => loadConfig({ plugins: [], env: { TRAWL_SERVER_PORT: 'abc' } })).toThrow(
      'Invalid configuration: TRAWL_SERVER_PORT (server.port): expected a number',
    );
    expect(() => loadConfig({ plugins: [], env: { TRAWL_FETCH_ALLOW_PRIVATE_NETWORK: 'yes' } })).toThrow(
      'Invalid configuration: TRAWL_FETCH_ALLOW_PRIVATE_NETWORK (fetch.allowPrivateNetwork): expected true or false',
    );
    expect(() => loadConfig({ plugins: [], env: { PORT: '99999' } })).toThrow('Invalid configuration: PORT (server.port): Too big');
    expect(() =>
      loadConfig({ plugins: [], env: {}, overrides: { server: { host: '' } }, optionNames: { 'server.host': '--host' } }),
    ).toThrow('Invalid configuration: --host (server.host): Too small');
    expect(() => loadConfig({ plugins: [], env: {}, overrides: { log: { level: 'loud' } } })).toThrow('Invalid configuration at log.level');
  });

  test("a value inside JSON a variable set is that variable's", () => {
    expect(() => loadConfig({ plugins: [], env: { TRAWL_FETCH_HEADERS: '{"x-a": 1}' } })).toThrow(
      'Invalid configuration: TRAWL_FETCH_HEADERS (fetch.headers.x-a):',
    );
  });

  test('a bad value or an unknown key in a file is named as written there, with the file', () => {
    const file = tomlFile('[fetch]\ntimeout = 5\n');
    expect(() => loadConfig({ plugins: [], env: { TRAWL_CONFIG: file } })).toThrow(
      `Invalid configuration: fetch.timeout in ${file}: unknown key`,
    );
    const typed = tomlFile('[fetch]\nallowPrivateNetwork = "yes"\n');
    expect(() => loadConfig({ plugins: [], env: { TRAWL_CONFIG: typed } })).toThrow(
      `Invalid configuration: fetch.allowPrivateNetwork in ${typed}: Invalid input: expected boolean, received string`,
    );
  });

  test('errors raised after loading are attributed the same way', () => {
    const config = loadConfig({ plugins: [], env: { TRAWL_FETCH_HEADERS: '{"x-list": "a"}' } });
    const attributed = attributeConfigError(configInvalid('Invalid configuration at fetch.headers.x-list: not allowed'), config) as Error;
    expect(attributed.message).toBe('Invalid configuration: TRAWL_FETCH_HEADERS (fetch.headers.x-list): not allowed');
    const unrelated = configInvalid('Invalid configuration at llm.provider: unknown');
    expect(attributeConfigError(unrelated, config)).toBe(unrelated);
  });

  test('a missing or broken TRAWL_CONFIG file', () => {
    expect(() => loadConfig({ plugins: [], env: { TRAWL_CONFIG: '/nonexistent/trawl.toml' } })).toThrow(
      'TRAWL_CONFIG file /nonexistent/trawl.toml does not exist',
    );
    const broken = tomlFile('[fetch\n');
    // One line: the parser's excerpt of the file is left out, its position kept.
    expect(() => loadConfig({ plugins: [], env: { TRAWL_CONFIG: broken } })).toThrow(
      new RegExp(`^TRAWL_CONFIG file ${broken} is not valid TOML: [^\\n]+ at line 1, column \\d+$`),
    );
  });
});
