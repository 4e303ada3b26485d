/**
 * `bun run cli new-plugin`: into a scratch tree that is the repository by symbolic links (core,
 * every existing plugin folder, node_modules, test) with its own copies of plugins/index.ts,
 * config/default.toml and docs/configuration.md, it writes a plugin of each supported kind; the
 * plugins type-check, their generated tests pass, and the service's plugin list and default
 * configuration take them. Mistakes are one line with exit code 2 and leave the tree as it was.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../core/config.ts';
import type { AnyPlugin } from '../core/plugin.ts';
import { PluginRegistry } from '../core/registry.ts';
import { runCliCommand } from '../test/helpers/cli.ts';
import { createPlugin } from './commands/new-plugin.ts';
import { TEMPLATES } from './commands/plugin-templates.ts';

const REPO = join(import.meta.dir, '..');
const KINDS = Object.keys(TEMPLATES);
let tree: string;

/** The repository as links, but with a plugin list and default configuration of its own to change. */
function scratchTree(): string {
  const root = mkdtempSync(join(tmpdir(), 'trawl-new-plugin-'));
  for (const shared of ['core', 'node_modules', 'test']) symlinkSync(join(REPO, shared), join(root, shared));
  for (const kind of readdirSync(join(REPO, 'plugins'), { withFileTypes: true }).filter((e) => e.isDirectory())) {
    mkdirSync(join(root, 'plugins', kind.name), { recursive: true });
    for (const entry of readdirSync(join(REPO, 'plugins', kind.name)))
      symlinkSync(join(REPO, 'plugins', kind.name, entry), join(root, 'plugins', kind.name, entry));
  }
  mkdirSync(join(root, 'config'));
  mkdirSync(join(root, 'docs'));
  for (const file of ['plugins/index.ts', 'config/default.toml', 'docs/configuration.md', 'bunfig.toml', 'biome.jsonc'])
    copyFileSync(join(REPO, file), join(root, file));
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({ extends: join(REPO, 'tsconfig.json'), include: KINDS.map((kind) => `plugins/${kind}/demo-*/*.ts`) }),
  );
  return root;
}

const run = async (cmd: string[], cwd: string) => {
  const child = Bun.spawn(cmd, { cwd, stdout: 'pipe', stderr: 'pipe', env: { ...process.env, UPDATE: '' } });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { output: stdout + stderr, exitCode };
};

beforeAll(() => {
  tree = scratchTree();
});
afterAll(() => rmSync(tree, { recursive: true, force: true }));

describe('new-plugin', () => {
  test('the command writes the plugin, its test, and its entries in the plugin list and the configuration', async () => {
    const { stdout, stderr, exitCode } = await runCliCommand(['new-plugin', 'format', 'demo-headings', '--root', tree]);
    expect({ stderr, exitCode }).toEqual({ stderr: '', exitCode: 0 });
    expect(stdout).toContain('wrote plugins/format/demo-headings/demo-headings.ts\n');
    expect(stdout).toContain('wrote docs/configuration.md\n');
    for (const kind of KINDS.filter((k) => k !== 'format')) createPlugin(tree, kind, `demo-${kind}`);

    const index = readFileSync(join(tree, 'plugins/index.ts'), 'utf8');
    expect(index).toContain("import { demoHeadingsFormat } from './format/demo-headings/demo-headings.ts';");
    // Order decides among documents and search providers: before html, and before the keyless provider.
    expect(index.indexOf('  demoDocumentDocument,')).toBeLessThan(index.indexOf('  htmlDocument,'));
    expect(index.indexOf('  demoSearchSearch,')).toBeLessThan(index.indexOf('  duckduckgoSearch,'));
    const source = readFileSync(join(tree, 'plugins/format/demo-headings/demo-headings.ts'), 'utf8');
    expect(source).toStartWith('/**\n * The demo-headings format');
    expect(source).toContain("from '../../../core/kit.ts'");
    expect(readFileSync(join(tree, 'plugins/format/demo-headings/demo-headings.test.ts'), 'utf8')).toContain(
      "from '../../../core/testing.ts'",
    );
    // The settings reference follows the configuration, as config/reference.test.ts requires.
    expect(readFileSync(join(tree, 'docs/configuration.md'), 'utf8')).toContain('### `[plugins.format.demo-headings]`');
  });

  test('the service takes them: the plugin list loads and the default configuration enables them', async () => {
    const { builtinPlugins } = (await import(join(tree, 'plugins/index.ts'))) as { builtinPlugins: readonly AnyPlugin[] };
    const config = loadConfig({
      plugins: builtinPlugins,
      env: {},
      defaultFile: join(tree, 'config/default.toml'),
      overrides: { log: { level: 'silent' } },
    });
    const registry = new PluginRegistry(builtinPlugins, config);
    const demo = registry
      .all()
      .filter((p) => p.definition.name.startsWith('demo-'))
      .map((p) => [p.id, p.enabled]);
    // A search provider is off until its `url` is set, as the built-in ones are.
    expect(Object.fromEntries(demo)).toEqual({
      'source.demo-source': true,
      'document.demo-document': true,
      'transform.demo-transform': true,
      'format.demo-headings': true,
      'search.demo-search': false,
    });
  });

  test('the generated tests pass and the plugins type-check', async () => {
    const tests = await run(['bun', 'test', ...KINDS.map((kind) => `plugins/${kind}/demo-`)], tree);
    expect(tests.output).toContain(' 6 pass\n 0 fail');
    expect(tests.exitCode).toBe(0);
    const types = await run([join(REPO, 'node_modules/.bin/tsc'), '--noEmit', '-p', 'tsconfig.json'], tree);
    expect(types).toEqual({ output: '', exitCode: 0 });
    // Written in the tree's style: what `bun run lint` checks passes on them as generated.
    const folders = KINDS.map((kind) => `plugins/${kind}/demo-${kind === 'format' ? 'headings' : kind}`);
    const lint = await run([join(REPO, 'node_modules/.bin/biome'), 'ci', '--error-on-warnings', '--vcs-enabled=false', ...folders], tree);
    expect(lint).toMatchObject({ exitCode: 0 });
  }, 120_000);

  test('mistakes are one line with exit code 2, and nothing is written', async () => {
    const before = readFileSync(join(tree, 'plugins/index.ts'), 'utf8');
    const cases: Array<[string[], string]> = [
      [['sink', 'mine'], 'new-plugin: cannot make a "sink" plugin; kinds: format, transform, document, source, search\n'],
      [['format', 'Mine'], 'new-plugin: the name "Mine" must be lower-case kebab-case (e.g. word-count)\n'],
      [['format', 'demo-headings'], 'new-plugin: plugins/format/demo-headings exists already\n'],
    ];
    for (const [args, message] of cases) {
      expect(await runCliCommand(['new-plugin', ...args, '--root', tree])).toEqual({ stdout: '', stderr: message, exitCode: 2 });
    }
    expect(readFileSync(join(tree, 'plugins/index.ts'), 'utf8')).toBe(before);
    expect(existsSync(join(tree, 'plugins/sink/mine'))).toBe(false);
  });
});
