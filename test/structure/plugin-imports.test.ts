/**
 * The seam between plugins and the rest: a file under plugins/ takes core only through the plugin
 * kit (core/kit.ts) — and, in tests and test fixtures, the test kit (core/testing.ts) — imports
 * nothing of server/ or cli/, and no other plugin's folder. Tests may use the few parts of test/
 * that cannot live in core (ALLOWED_TEST_IMPORTS). No core file imports either kit, so neither
 * can close an import circle. Imports are read and resolved by the import-circle check's scanner
 * (import-graph.ts), so a specifier in a comment or string does not count; the rules take an
 * import graph, so a test can show they catch each violation without planting one in the tree.
 */
import { describe, expect, test } from 'bun:test';
import { resolve } from 'node:path';
import { importGraph, importsOf } from './import-graph.ts';

const ROOT = resolve(import.meta.dir, '../..');

/**
 * What a plugin test may import from test/, and why it cannot come from the test kit:
 * html-page runs the built-in document parse and transforms, so it spans plugins and core may not
 * import it; databases is the suite's per-run Postgres/SQLite set-up (test/helpers/test-run.ts);
 * servers/ are fake upstream APIs and fixtures/ shared pages, both used by the end-to-end tests,
 * the SDK harness and the benches too.
 */
const ALLOWED_TEST_IMPORTS = ['test/helpers/html-page.ts', 'test/helpers/databases.ts', 'test/servers/', 'test/fixtures/'];

const KITS = ['core/kit.ts', 'core/testing.ts'];

const isTestSupport = (file: string) => file.endsWith('.test.ts') || file.includes('/fixtures/');

/** The rule broken by `file` (repo-relative, under plugins/) importing `target` (repo-relative), or null. */
function violation(file: string, target: string): string | null {
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

/** `file: rule` for every import under plugins/ that breaks the rules (given each file's imported files, repo-relative). */
function pluginImportViolations(graph: ReadonlyMap<string, Iterable<string>>): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const broken = violation(file, target);
      if (broken) found.push(`${file}: ${broken}`);
    }
  }
  return found;
}

describe('plugin imports', () => {
  test('every file under plugins/ takes core through the kits and stays in its own folder', async () => {
    expect(pluginImportViolations(await importGraph(ROOT, ['plugins']))).toEqual([]);
  });

  test('no core module imports the kits (they re-export core: the other way round is a circle); core tests may', async () => {
    const importers = [...(await importGraph(ROOT, ['core']))]
      .filter(([file]) => !KITS.includes(file) && !file.endsWith('.test.ts'))
      .filter(([, targets]) => KITS.some((kit) => targets.has(kit)))
      .map(([file]) => file);
    expect(importers).toEqual([]);
  });

  test('the check catches each kind of violation', () => {
    // Resolved against the real tree, so every planted import names a file that exists.
    const planted = new Map([
      [
        'plugins/format/demo/demo.ts',
        "import { dataKey } from '../../../core/data-bag.ts';\nexport { x } from '../../../server/app.ts';\nimport { parseHtmlPage } from '../../document/html/html.ts';\nimport { mainContentOf } from '../../../test/helpers/html-page.ts';\nconst m = await import('../../../core/dom.ts');\nimport { definePlugin } from '../../../core/kit.ts';\nimport { tidy } from '../shared/tidy.ts';\n// typeof import('../../../core/config.ts') in prose is no import",
      ],
      [
        'plugins/format/demo/demo.test.ts',
        "import type { Tokens } from '../../../core/services.ts';\nimport { testContext } from '../../../core/testing.ts';\nimport { htmlPage } from '../../../test/helpers/html-page.ts';\nimport { testDatabases } from '../../../test/helpers/test-run.ts';",
      ],
    ]);
    const graph = new Map([...planted].map(([file, source]) => [file, importsOf(ROOT, file, source)]));
    expect(pluginImportViolations(graph)).toEqual([
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
