/**
 * The html5lib-tests tree-construction format: reading its `.dat` files and writing a DOM tree as
 * its expected `#document` dumps are written (tree-construction/README.md in the data set), so
 * Trawl's parse can be compared with the standard's tree test by test.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const HTML5LIB_DIR = process.env.TRAWL_HTML5LIB_TESTS ?? resolve(import.meta.dir, '../../../shared/datasets/html5lib-tests');

export interface TreeTest {
  /** `file.dat#n`, n counting from 1. */
  id: string;
  file: string;
  data: string;
  /** Context element of a fragment test (`#document-fragment`), else null. */
  fragment: string | null;
  /** `#script-on` / `#script-off`, or null when the test holds in both modes. */
  scripting: 'on' | 'off' | null;
  document: string;
}

const HEADINGS = new Set(['#data', '#errors', '#new-errors', '#document-fragment', '#script-off', '#script-on', '#document']);

/** Every test of every `.dat` file in the suite's tree-construction folder (not its `scripted/` subfolder, which needs a script engine). */
export function loadTreeTests(dir = HTML5LIB_DIR): TreeTest[] {
  const folder = join(dir, 'tree-construction');
  if (!existsSync(folder)) {
    throw new Error(
      `html5lib-tests not found at ${folder}: the conformance suite is read from ../shared/datasets/html5lib-tests next to the repo (or set TRAWL_HTML5LIB_TESTS)`,
    );
  }
  const files = readdirSync(folder)
    .filter((f) => f.endsWith('.dat'))
    .sort();
  return files.flatMap((file) => parseDat(file, readFileSync(join(folder, file), 'utf8')));
}

export function parseDat(file: string, text: string): TreeTest[] {
  const tests: TreeTest[] = [];
  let sections: Record<string, string[]> | null = null;
  let current = '';
  const finish = () => {
    if (!sections) return;
    const body = (name: string) => {
      const lines = sections![name];
      if (!lines) return null;
      // a blank line separates tests: it belongs to none
      while (name === '#document' && lines.length && lines[lines.length - 1] === '') lines.pop();
      return lines.join('\n');
    };
    tests.push({
      id: `${file}#${tests.length + 1}`,
      file,
      data: body('#data') ?? '',
      fragment: body('#document-fragment'),
      scripting: '#script-on' in sections ? 'on' : '#script-off' in sections ? 'off' : null,
      document: body('#document') ?? '',
    });
  };
  for (const line of text.split('\n')) {
    if (line === '#data' && (sections === null || current === '#document')) {
      finish();
      sections = {};
    }
    if (sections && HEADINGS.has(line)) {
      current = line;
      sections[current] = [];
    } else if (sections) sections[current]!.push(line);
  }
  finish();
  return tests;
}

const NAMESPACE_PREFIX: Record<string, string> = {
  'http://www.w3.org/2000/svg': 'svg ',
  'http://www.w3.org/1998/Math/MathML': 'math ',
};
const ATTRIBUTE_PREFIX: Record<string, string> = {
  'http://www.w3.org/1999/xlink': 'xlink ',
  'http://www.w3.org/XML/1998/namespace': 'xml ',
  'http://www.w3.org/2000/xmlns/': 'xmlns ',
};

export interface DumpOptions {
  /** Write every element as if in the HTML namespace (to tell namespace misses from tree misses). */
  ignoreNamespaces?: boolean;
}

/** The children of `root` (a document, or an element for fragment tests) in the suite's dump format. */
export function dumpTree(root: Node, options: DumpOptions = {}): string {
  const lines: string[] = [];
  // iterative: conformance inputs nest deeply
  const stack: Array<[Node, number]> = [];
  const pushChildren = (parent: Node, depth: number) => {
    const kids = parent.childNodes;
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i]!, depth]);
  };
  pushChildren(root, 0);
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    const pad = `| ${'  '.repeat(depth)}`;
    if (node.nodeType === 10) {
      const dt = node as DocumentType;
      const ids = dt.publicId || dt.systemId ? ` "${dt.publicId}" "${dt.systemId}"` : '';
      lines.push(`${pad}<!DOCTYPE ${dt.name}${ids}>`);
    } else if (node.nodeType === 8) lines.push(`${pad}<!-- ${(node as Comment).data} -->`);
    else if (node.nodeType === 3) lines.push(`${pad}"${(node as Text).data}"`);
    else if (node.nodeType === 1) {
      const el = node as Element;
      const ns = options.ignoreNamespaces ? '' : (NAMESPACE_PREFIX[el.namespaceURI ?? ''] ?? '');
      lines.push(`${pad}<${ns}${el.localName}>`);
      const attrs = [...el.attributes].map((a) => {
        const prefix = a.namespaceURI ? (ATTRIBUTE_PREFIX[a.namespaceURI] ?? '') : '';
        return `${prefix ? prefix + (a.localName ?? a.name) : a.name}="${a.value}"`;
      });
      attrs.sort((a, b) => (attrName(a) < attrName(b) ? -1 : attrName(a) > attrName(b) ? 1 : 0));
      for (const a of attrs) lines.push(`| ${'  '.repeat(depth + 1)}${a}`);
      if (el.localName === 'template' && el.namespaceURI === 'http://www.w3.org/1999/xhtml') {
        // linkedom keeps template contents as the template's children
        lines.push(`| ${'  '.repeat(depth + 1)}content`);
        pushChildren(el, depth + 2);
      } else pushChildren(el, depth + 1);
    }
  }
  return lines.join('\n');
}

const attrName = (line: string) => line.slice(0, line.indexOf('='));
