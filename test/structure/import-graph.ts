/**
 * The import graph of Trawl's own files, for structural tests: which files each file imports by a
 * relative path, counting every form that ties two files together at type-check or run time —
 * `import` (type-only too), `export … from`, `import('…')` (also in `typeof import('…')`) and
 * side-effect imports — and the circles in it (strongly connected components). A small scanner
 * rather than the compiler: it skips comments, strings, template text and regular expressions, so
 * a specifier mentioned in prose does not count, and it reads the 700-odd files in well under a second.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Glob } from 'bun';

type Token = { kind: 'word' | 'punct'; text: string } | { kind: 'string'; text: string };

// After these a `/` starts a regular expression; after a value (a name, `)`, `]`) it divides.
const BEFORE_REGEX = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^', '=>']);
const KEYWORDS_BEFORE_REGEX = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'yield',
  'await',
]);
const isWordChar = (c: string) => /[\w$]/.test(c);

/** The source as words, punctuation and string literals; comments, template text and regular expressions are dropped. */
function tokens(source: string): Token[] {
  const out: Token[] = [];
  // Open template literals: the brace depth at which each `${…}` returns to its template's text.
  const templates: number[] = [];
  let depth = 0;
  let i = 0;
  const n = source.length;
  const last = () => out[out.length - 1];
  const regexAllowed = () => {
    const t = last();
    if (!t) return true;
    if (t.kind === 'word') return KEYWORDS_BEFORE_REGEX.has(t.text);
    return t.kind === 'punct' && BEFORE_REGEX.has(t.text);
  };
  // Reads template text from i up to the closing backtick (pushing its text as a string when it has
  // no substitution) or up to a `${`, where code resumes.
  const templateText = (start: number) => {
    let j = start;
    while (j < n) {
      const c = source[j]!;
      if (c === '\\') j += 2;
      else if (c === '`') {
        out.push({ kind: 'string', text: source.slice(start, j) });
        return j + 1;
      } else if (c === '$' && source[j + 1] === '{') {
        templates.push(depth);
        out.push({ kind: 'punct', text: '${' });
        return j + 2;
      } else j++;
    }
    return j;
  };
  while (i < n) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      i = end < 0 ? n : end;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < n && source[j] !== c && source[j] !== '\n') j += source[j] === '\\' ? 2 : 1;
      out.push({ kind: 'string', text: source.slice(i + 1, j) });
      i = j + 1;
    } else if (c === '`') {
      i = templateText(i + 1);
    } else if (c === '/' && regexAllowed()) {
      let j = i + 1;
      let inClass = false;
      while (j < n && source[j] !== '\n') {
        const d = source[j]!;
        if (d === '\\') j++;
        else if (d === '[') inClass = true;
        else if (d === ']') inClass = false;
        else if (d === '/' && !inClass) break;
        j++;
      }
      i = j + 1;
      while (i < n && isWordChar(source[i]!)) i++;
      out.push({ kind: 'punct', text: 'regex' });
    } else if (isWordChar(c)) {
      let j = i + 1;
      while (j < n && isWordChar(source[j]!)) j++;
      out.push({ kind: 'word', text: source.slice(i, j) });
      i = j;
    } else if (/\s/.test(c)) {
      i++;
    } else if (c === '{') {
      depth++;
      out.push({ kind: 'punct', text: c });
      i++;
    } else if (c === '}') {
      if (templates.length && templates[templates.length - 1] === depth) {
        templates.pop();
        i = templateText(i + 1);
      } else {
        depth--;
        out.push({ kind: 'punct', text: c });
        i++;
      }
    } else if (c === '=' && next === '>') {
      out.push({ kind: 'punct', text: '=>' });
      i += 2;
    } else {
      out.push({ kind: 'punct', text: c });
      i++;
    }
  }
  return out;
}

/** Every module specifier a TypeScript source imports or re-exports from, in order. */
export function moduleSpecifiers(source: string): string[] {
  const toks = tokens(source);
  const found: string[] = [];
  const at = (k: number) => toks[k];
  const isPunct = (k: number, text: string) => at(k)?.kind === 'punct' && at(k)!.text === text;
  const isWord = (k: number, text: string) => at(k)?.kind === 'word' && at(k)!.text === text;
  // From a clause's start, the string after its `from` (or a bare string: `import 'x'`), stopping at `;`.
  const fromClause = (k: number) => {
    for (let j = k; j < toks.length && !isPunct(j, ';'); j++) {
      const t = at(j)!;
      if (t.kind === 'string' && (j === k || isWord(j - 1, 'from'))) return t.text;
      if (t.kind === 'string') return null;
    }
    return null;
  };
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k]!;
    if (t.kind !== 'word' || isPunct(k - 1, '.')) continue;
    if (t.text === 'import') {
      if (isPunct(k + 1, '(')) {
        if (at(k + 2)?.kind === 'string') found.push(at(k + 2)!.text);
      } else if (!isPunct(k + 1, '.')) {
        const spec = fromClause(k + 1);
        if (spec !== null) found.push(spec);
      }
    } else if (t.text === 'export') {
      let j = k + 1;
      if (isWord(j, 'type')) j++;
      if (isPunct(j, '*')) {
        const spec = fromClause(j + 1);
        if (spec !== null) found.push(spec);
      } else if (isPunct(j, '{')) {
        while (j < toks.length && !isPunct(j, '}')) j++;
        if (isWord(j + 1, 'from') && at(j + 2)?.kind === 'string') found.push(at(j + 2)!.text);
      }
    }
  }
  return found;
}

/**
 * The file (relative to root) a relative specifier names: the file itself when it exists, whatever
 * its kind (a JSON import is still an import), else `.js` standing for `.ts`, a bare name for its
 * .ts, a folder for its index.ts; null for a package or a name that resolves to nothing.
 */
function resolveSpecifier(root: string, from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(root, dirname(from), spec);
  const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  for (const candidate of candidates) {
    if ((candidate === base || candidate.endsWith('.ts')) && existsSync(candidate) && statSync(candidate).isFile())
      return relative(root, candidate);
  }
  return null;
}

/** The project files that `file` (relative to root, with the given source) imports, in order. */
export function importsOf(root: string, file: string, source: string): Set<string> {
  const deps = new Set<string>();
  for (const spec of moduleSpecifiers(source)) {
    const target = resolveSpecifier(root, file, spec);
    if (target) deps.add(target);
  }
  return deps;
}

/** File (relative to root) → the files it imports, for every .ts file under the folders, in path order. */
export async function importGraph(root: string, folders: readonly string[]): Promise<Map<string, Set<string>>> {
  const graph = new Map<string, Set<string>>();
  const pattern = new Glob(`{${folders.join(',')}}/**/*.ts`);
  for (const file of [...pattern.scanSync({ cwd: root })].sort()) {
    if (file.includes('node_modules/')) continue;
    graph.set(file, importsOf(root, file, await Bun.file(join(root, file)).text()));
  }
  return graph;
}

/**
 * The circles of the graph: each strongly connected component of more than one file, and each file
 * that imports itself, with one loop through it to show how it closes (`a.ts -> b.ts -> a.ts`).
 */
export function importCircles(graph: ReadonlyMap<string, ReadonlySet<string>>): { files: string[]; loop: string[] }[] {
  // Tarjan's algorithm, iterative: deep import chains must not overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let counter = 0;
  const edges = (v: string) => [...(graph.get(v) ?? [])].filter((w) => graph.has(w));
  for (const start of [...graph.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { v: string; next: string[] }[] = [];
    const enter = (v: string) => {
      index.set(v, counter);
      low.set(v, counter++);
      stack.push(v);
      onStack.add(v);
      work.push({ v, next: edges(v) });
    };
    enter(start);
    while (work.length) {
      const frame = work[work.length - 1]!;
      const w = frame.next.shift();
      if (w !== undefined) {
        if (!index.has(w)) enter(w);
        else if (onStack.has(w)) low.set(frame.v, Math.min(low.get(frame.v)!, index.get(w)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.v, Math.min(low.get(parent.v)!, low.get(frame.v)!));
      if (low.get(frame.v) !== index.get(frame.v)) continue;
      const component: string[] = [];
      let x: string;
      do {
        x = stack.pop()!;
        onStack.delete(x);
        component.push(x);
      } while (x !== frame.v);
      if (component.length > 1 || graph.get(frame.v)?.has(frame.v)) components.push(component.sort());
    }
  }
  return components.map((files) => ({ files, loop: loopThrough(graph, files) }));
}

/** A shortest loop from the component's first file back to it, staying inside the component. */
function loopThrough(graph: ReadonlyMap<string, ReadonlySet<string>>, files: string[]): string[] {
  const inside = new Set(files);
  const first = files[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [first];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of [...(graph.get(v) ?? [])].sort()) {
      if (!inside.has(w)) continue;
      if (w === first) {
        const path = [first];
        for (let u: string | undefined = v; u !== undefined && u !== first; u = cameFrom.get(u)) path.splice(1, 0, u);
        return [...path, first];
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return [first, first];
}
