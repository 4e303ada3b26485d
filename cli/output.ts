/**
 * Where and how the CLI writes answers: stdout or a file (`--out`), one format of a page as its
 * text (markdown, text, HTML) or anything structured as JSON, and `--out-dir`'s one file per page
 * with a name made from the page's URL that can never leave the directory.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { v1FormatField } from '../server/wire/v1/present.ts';

export const json = (value: unknown) => JSON.stringify(value, null, 2);

/** Writes the answer to `file` (its folder made) or to stdout; always ends with a newline. */
export function emit(text: string, file?: string): void {
  const body = text.endsWith('\n') ? text : `${text}\n`;
  if (!file) {
    process.stdout.write(body);
    return;
  }
  mkdirSync(dirname(resolve(file)), { recursive: true });
  writeFileSync(file, body);
}

const EXTENSIONS: Readonly<Record<string, string>> = { markdown: 'md', text: 'txt', html: 'html', rawHtml: 'html', summary: 'txt' };

/** One page's answer (a /v1 scrape result) as the output of `formats`: one text format as-is, else JSON. */
export function pageOutput(page: Record<string, unknown>, formats: readonly string[], whole: boolean): { text: string; extension: string } {
  if (whole || formats.length !== 1) return { text: json(page), extension: 'json' };
  const value = page[v1FormatField(formats[0]!)];
  if (typeof value === 'string') return { text: value, extension: EXTENSIONS[formats[0]!] ?? 'txt' };
  return { text: json(value ?? null), extension: 'json' };
}

const MAX_NAME = 120;

/**
 * A file name for a page's URL: host and path with every character outside `[A-Za-z0-9._-]` made
 * `_` (so no separator, and no name of dots only, can appear), a hash for a query or an over-long
 * name, and `-2`, `-3` … when two URLs come out the same.
 */
export function pageFileName(url: string, extension: string, taken: Set<string>): string {
  let base: string;
  let query = '';
  try {
    const parsed = new URL(url);
    base = `${parsed.host}${parsed.pathname === '/' ? '/index' : parsed.pathname.replace(/\/$/, '')}`;
    query = parsed.search;
  } catch {
    base = url;
  }
  let name = base.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '') || 'page';
  if (query || name.length > MAX_NAME) name = `${name.slice(0, MAX_NAME)}_${createHash('sha256').update(url).digest('hex').slice(0, 10)}`;
  let candidate = `${name}.${extension}`;
  for (let n = 2; taken.has(candidate); n++) candidate = `${name}-${n}.${extension}`;
  taken.add(candidate);
  return candidate;
}

/** Writes each page into `dir` (made if missing) and answers the paths written, in order. */
export function writePages(dir: string, pages: ReadonlyArray<{ url: string; text: string; extension: string }>): string[] {
  const root = resolve(dir);
  mkdirSync(root, { recursive: true });
  const taken = new Set<string>();
  return pages.map((page) => {
    const path = join(root, pageFileName(page.url, page.extension, taken));
    // The name has no separator, so this holds; it is checked all the same, since a file outside would be a write anywhere.
    if (!path.startsWith(root + sep)) throw new Error(`refusing to write outside ${root}: ${path}`);
    writeFileSync(path, page.text.endsWith('\n') ? page.text : `${page.text}\n`);
    return path;
  });
}
