/**
 * The seam between plugins and the rest: a file under plugins/ takes core only through the plugin
 * kit (core/kit.ts) — and, in tests and test fixtures, the test kit (core/testing.ts) — imports
 * nothing of server/ or cli/, and no other plugin's folder. Tests may use the few parts of test/
 * that cannot live in core (ALLOWED_TEST_IMPORTS). No core file imports either kit, so neither
 * can close an import circle. `pluginImportViolations` is exported so a test can show it catches
 * a violation without planting one in the tree.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Glob } from 'bun';

const ROOT = resolve(import.meta.dir, '../..');

/**
 * What a plugin test may import from test/, and why it cannot come from the test kit:
 * html-page runs the built-in document parse and transforms, so it spans plugins and core may not
 * import it; databases is the suite's per-run Postgres/SQLite set-up (test/helpers/test-run.ts);
 * servers/ are fake upstream APIs and fixtures/ shared pages, both used by the end-to-end tests,
 * the SDK harness and the benches too.
 */
export const ALLOWED_TEST_IMPORTS = ['test/helpers/html-page.ts', 'test/helpers/databases.ts', 'test/servers/', 'test/fixtures/'];

const isTestSupport = (file: string) => file.endsWith('.test.ts') || file.includes('/fixtures/');

/** Every module specifier a file names: static imports, `export … from`, dynamic `import()`. */
export function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(
    /^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm,
  )) {
    found.push((m[1] ?? m[2] ?? m[3])!);
  }
  return found;
}

/** The rule broken by `file` (repo-relative, under plugins/) importing `spec`, or null. */
export function violation(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const target = relative(ROOT, resolve(ROOT, dirname(file), spec));
  const test = isTestSupport(file);
  if (target.startsWith('core/')) {
    if (target === 'core/kit.ts' || (test && target === 'core/testing.ts')) return null;
    return `imports ${target}: core is reached through core/kit.ts${test ? ' or core/testing.ts' : ''}`;
  }
  if (target.startsWith('server/') || target.startsWith('cli/')) return `imports ${target}: a plugin never imports the server or the CLI`;
  if (target.startsWith('test/')) {
    if (test && ALLOWED_TEST_IMPORTS.some((allowed) => target === allowed || (allowed.endsWith('/') && target.startsWith(allowed))))
      return null;
    return `imports ${target}: ${test ? 'test support comes from core/testing.ts' : 'plugin code never imports test/'}`;
  }
  if (target.startsWith('plugins/')) {
    // A plugin's folder is plugins/<kind>/<name>/; plugins/<kind>/shared/ serves every plugin of the
    // kind, and a test beside the kind's folders (plugins/blocker/blockers.test.ts) covers them all.
    if (file === 'plugins/index.ts') return null;
    const [, kind, name] = file.split('/');
    const [, targetKind, targetName] = target.split('/');
    const kindWide = name!.endsWith('.ts') || targetName === 'shared';
    // Such a kind-wide test finds the kind's plugins in the built-in list.
    if (name!.endsWith('.test.ts') && target === 'plugins/index.ts') return null;
    if (kind === targetKind && (name === targetName || kindWide)) return null;
    return `imports ${target}: a plugin imports only its own folder (and its kind's shared/)`;
  }
  return `imports ${target}: outside core, its own folder and the allowed test support`;
}

/** `file: rule` for every import under plugins/ that breaks the rules (given file texts, by repo-relative path). */
export function pluginImportViolations(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, source] of files) {
    for (const spec of specifiers(source)) {
      const broken = violation(file, spec);
      if (broken) found.push(`${file}: ${broken}`);
    }
  }
  return found;
}

const read = (pattern: string) =>
  new Map([...new Glob(pattern).scanSync(ROOT)].sort().map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]));

describe('plugin imports', () => {
  test('every file under plugins/ takes core through the kits and stays in its own folder', () => {
    expect(pluginImportViolations(read('plugins/**/*.ts'))).toEqual([]);
  });

  test('no core module imports the kits (they re-export core: the other way round is a circle); core tests may', () => {
    const importers = [...read('core/**/*.ts')]
      .filter(([file]) => file !== 'core/kit.ts' && file !== 'core/testing.ts' && !file.endsWith('.test.ts'))
      .filter(([file, source]) =>
        specifiers(source).some((spec) => ['core/kit.ts', 'core/testing.ts'].includes(relative(ROOT, resolve(ROOT, dirname(file), spec)))),
      )
      .map(([file]) => file);
    expect(importers).toEqual([]);
  });

  test('the check catches each kind of violation', () => {
    const planted = new Map([
      [
        'plugins/format/demo/demo.ts',
        "import { dataKey } from '../../../core/data-bag.ts';\nexport { x } from '../../../server/app.ts';\nimport { parseHtmlPage } from '../../document/html/html.ts';\nimport { mainContentOf } from '../../../test/helpers/html-page.ts';\nconst m = await import('../../../core/dom.ts');\nimport { definePlugin } from '../../../core/kit.ts';\nimport { tidy } from '../shared/tidy.ts';",
      ],
      [
        'plugins/format/demo/demo.test.ts',
        "import type { Tokens } from '../../../core/services.ts';\nimport { testContext } from '../../../core/testing.ts';\nimport { htmlPage } from '../../../test/helpers/html-page.ts';\nimport { testDatabases } from '../../../test/helpers/test-run.ts';",
      ],
    ]);
    expect(pluginImportViolations(planted)).toEqual([
      'plugins/format/demo/demo.ts: imports core/data-bag.ts: core is reached through core/kit.ts',
      'plugins/format/demo/demo.ts: imports server/app.ts: a plugin never imports the server or the CLI',
      "plugins/format/demo/demo.ts: imports plugins/document/html/html.ts: a plugin imports only its own folder (and its kind's shared/)",
      'plugins/format/demo/demo.ts: imports test/helpers/html-page.ts: plugin code never imports test/',
      'plugins/format/demo/demo.ts: imports core/dom.ts: core is reached through core/kit.ts',
      'plugins/format/demo/demo.test.ts: imports core/services.ts: core is reached through core/kit.ts or core/testing.ts',
      'plugins/format/demo/demo.test.ts: imports test/helpers/test-run.ts: test support comes from core/testing.ts',
    ]);
  });
});
