// No import circles: a file never reaches itself through what it imports, across every TypeScript
// folder of the project (core/, server/, plugins/, cli/, and the tests, benchmarks, SDK, config and
// deploy scripts, tests included), whatever the kind of import — type-only imports and
// `export … from` count, since a contract file that type-imports the code built on it ties the two
// as surely. This covers each plugin folder too: a circle inside one is a circle of the whole.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { importCircles, importGraph, moduleSpecifiers } from './import-graph.ts';

const ROOT = join(import.meta.dir, '../..');
const FOLDERS = ['core', 'server', 'plugins', 'cli', 'test', 'bench', 'sdks', 'config', 'deploy'];

describe('import circles', () => {
  test('no file of the project imports itself, directly or through others', async () => {
    const graph = await importGraph(ROOT, FOLDERS);
    expect(graph.size).toBeGreaterThan(500);
    const circles = importCircles(graph).map(({ files, loop }) => `${files.length} files: ${loop.join(' -> ')}\n    (${files.join(', ')})`);
    expect(circles).toEqual([]);
  });
});

describe('the scanner the check relies on', () => {
  test('reads every kind of import and re-export, and nothing in comments, strings or patterns', () => {
    const source = [
      "import a from './a.ts';",
      'import type { B } from "./b.ts";',
      "import c, { type C } from './c.ts';",
      "import * as d from './d.ts';",
      "import './e.ts';",
      "export * from './f.ts';",
      "export * as g from './g.ts';",
      "export type { H } from './h.ts';",
      "export { i, type I } from './i.ts';",
      "let j: Promise<typeof import('./j.ts')>;",
      "const k = await import('./k.ts');",
      'const l = await import(`./l.ts`);',
      "// import m from './comment.ts';",
      "/* export * from './block.ts'; */",
      'const n = "import o from \'./string.ts\'";',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the scanner's input is JavaScript source
      "const p = `${q} import('./template.ts') ${`${r}`}`;",
      "const s = /from '.\\/pattern.ts'/;",
      'const t = import.meta.url;',
      'export const u = 1;',
      "const v = { import: 'w' };",
      "const y = wide / 2; import z from './z.ts';",
    ].join('\n');
    expect(moduleSpecifiers(source)).toEqual([
      './a.ts',
      './b.ts',
      './c.ts',
      './d.ts',
      './e.ts',
      './f.ts',
      './g.ts',
      './h.ts',
      './i.ts',
      './j.ts',
      './k.ts',
      './l.ts',
      './z.ts',
    ]);
  });

  test('finds a circle of several files, a file importing itself, and none in a tree', () => {
    const graph = new Map<string, Set<string>>([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['c.ts', 'd.ts'])],
      ['c.ts', new Set(['a.ts'])],
      ['d.ts', new Set(['d.ts'])],
      ['e.ts', new Set(['a.ts', 'outside.ts'])],
    ]);
    expect(importCircles(graph)).toEqual([
      { files: ['d.ts'], loop: ['d.ts', 'd.ts'] },
      { files: ['a.ts', 'b.ts', 'c.ts'], loop: ['a.ts', 'b.ts', 'c.ts', 'a.ts'] },
    ]);
    expect(
      importCircles(
        new Map([
          ['a.ts', new Set(['b.ts'])],
          ['b.ts', new Set<string>()],
        ]),
      ),
    ).toEqual([]);
  });
});
