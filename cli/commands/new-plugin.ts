/**
 * `bun run cli new-plugin <kind> <name>`: a new plugin from a template
 * (cli/commands/plugin-templates.ts): its source file on the plugin kit, a colocated test on the
 * test kit, its entry in plugins/index.ts (where the kind's plugins are listed, in the place their
 * order asks for) and its table in config/default.toml, with docs/configuration.md's settings
 * reference regenerated to match. Everything is checked before anything is written, so a refusal
 * leaves the tree as it was.
 */
import { Command } from 'commander';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { regeneratedPage } from '../../config/reference.ts';
import { CliError } from '../errors.ts';
import { TEMPLATES, type PluginNames } from './plugin-templates.ts';

const REPO = join(import.meta.dir, '../..');

/** Where a kind's new entry goes when list order decides (the first match wins): before this entry. */
const BEFORE: Readonly<Record<string, string>> = {
  document: 'htmlDocument', // specific types before html, which takes any markup
  search: 'duckduckgoSearch', // the keyless, best-effort provider stays last
};

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** The plugin list with `variable` imported and listed among its kind. */
function registered(index: string, kind: string, n: PluginNames): string {
  const lines = index.split('\n');
  const importLine = `import { ${n.variable} } from './${kind}/${n.name}/${n.name}.ts';`;
  const lastImport = lines.findLastIndex((line) => line.startsWith('import '));
  const lastOfKind = lines.findLastIndex((line) => line.startsWith('import ') && line.includes(`'./${kind}/`));
  lines.splice((lastOfKind >= 0 ? lastOfKind : lastImport) + 1, 0, importLine);
  const start = lines.findIndex((line) => line.includes('builtinPlugins'));
  const end = lines.findIndex((line, i) => i > start && line.startsWith(']'));
  if (start < 0 || end < 0) throw new CliError('new-plugin: plugins/index.ts has no builtinPlugins list to add to', 1);
  const entry = new RegExp(`^\\s+(\\w+${capital(kind)}),`);
  const before = BEFORE[kind] ? lines.findIndex((line, i) => i > start && i < end && line.trim().startsWith(`${BEFORE[kind]},`)) : -1;
  const last = lines.findLastIndex((line, i) => i > start && i < end && entry.test(line));
  lines.splice(before >= 0 ? before : last >= 0 ? last + 1 : end, 0, `  ${n.variable},`);
  return lines.join('\n');
}

/** The configuration with the plugin's table after the kind's last one (at the end when it has none). */
function configured(toml: string, kind: string, table: string): string {
  const lines = toml.replace(/\n+$/, '').split('\n');
  const header = new RegExp(`^\\[plugins\\.${kind}[.\\]]`);
  const last = lines.findLastIndex((line) => header.test(line));
  if (last < 0) return `${lines.join('\n')}\n\n${table}`;
  let at = lines.findIndex((line, i) => i > last && line.startsWith('['));
  if (at < 0) at = lines.length;
  // Comments above the next table introduce it: the new table goes before them.
  while (at - 1 > last && (lines[at - 1]!.startsWith('#') || lines[at - 1]!.trim() === '')) at -= 1;
  lines.splice(at, 0, '', ...table.replace(/\n$/, '').split('\n'));
  return `${lines.join('\n')}\n`;
}

/** The new files in the tree's own style: its formatter (biome.jsonc), when the tree has it installed. */
function formatted(root: string, files: string[]): void {
  const biome = join(root, 'node_modules/.bin/biome');
  if (!existsSync(biome) || !existsSync(join(root, 'biome.jsonc'))) return;
  // Named files only, so the tree's ignore file (which needs a git checkout to read) plays no part.
  Bun.spawnSync([biome, 'format', '--write', '--vcs-enabled=false', ...files], { cwd: root, stdout: 'ignore', stderr: 'ignore' });
}

/** Writes the plugin into the tree at `root`; returns the repo-relative paths written. */
export function createPlugin(root: string, kind: string, name: string): string[] {
  const template = TEMPLATES[kind];
  if (!template) throw new CliError(`new-plugin: cannot make a "${kind}" plugin; kinds: ${Object.keys(TEMPLATES).join(', ')}`, 2);
  if (!/^[a-z][a-z0-9-]*$/.test(name))
    throw new CliError(`new-plugin: the name "${name}" must be lower-case kebab-case (e.g. word-count)`, 2);
  const folder = `plugins/${kind}/${name}`;
  if (existsSync(join(root, folder))) throw new CliError(`new-plugin: ${folder} exists already`, 2);
  const n: PluginNames = { name, variable: `${name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())}${capital(kind)}` };
  const indexPath = join(root, 'plugins/index.ts');
  const configPath = join(root, 'config/default.toml');
  const index = readFileSync(indexPath, 'utf8');
  if (new RegExp(`\\b${n.variable}\\b`).test(index)) throw new CliError(`new-plugin: plugins/index.ts already lists ${n.variable}`, 2);
  const newIndex = registered(index, kind, n);
  const newConfig = configured(readFileSync(configPath, 'utf8'), kind, template.config(n));

  mkdirSync(join(root, folder), { recursive: true });
  writeFileSync(join(root, folder, `${name}.ts`), template.source(n));
  writeFileSync(join(root, folder, `${name}.test.ts`), template.test(n));
  formatted(root, [`${folder}/${name}.ts`, `${folder}/${name}.test.ts`]);
  writeFileSync(indexPath, newIndex);
  writeFileSync(configPath, newConfig);
  const written = [`${folder}/${name}.ts`, `${folder}/${name}.test.ts`, 'plugins/index.ts', 'config/default.toml'];
  const reference = join(root, 'docs/configuration.md');
  if (existsSync(reference)) {
    writeFileSync(reference, regeneratedPage(readFileSync(reference, 'utf8'), newConfig));
    written.push('docs/configuration.md');
  }
  return written;
}

export function newPluginCommand(): Command {
  return new Command('new-plugin')
    .description(
      `Create a plugin from a template: its file, a colocated test, its entries in plugins/index.ts and config/default.toml (kinds: ${Object.keys(TEMPLATES).join(', ')})`,
    )
    .argument('<kind>', 'the plugin kind')
    .argument('<name>', 'the plugin name, kebab-case')
    .option('--root <dir>', 'the Trawl tree to write into', REPO)
    .addHelpText('after', '\nExample:\n  bun run cli new-plugin format word-count && bun test plugins/format/word-count')
    .action((kind: string, name: string, flags: { root: string }) => {
      for (const path of createPlugin(flags.root, kind, name)) process.stdout.write(`wrote ${path}\n`);
      process.stdout.write(`next: bun test plugins/${kind}/${name}, then make it yours (docs/plugins.md)\n`);
    });
}
