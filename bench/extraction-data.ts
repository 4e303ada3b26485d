/**
 * Dataset access for the extraction benchmark: resolves the shared main-content dev set
 * (`../shared/datasets/main-content` from the repo root), loads the ground truth and the gzipped
 * pages. The dataset is read in place at run time and never copied into the repo.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { parseHtmlDocument } from '../core/dom.ts';

export interface Truth {
  articleBody: string;
  url: string;
  source: string;
  type: string;
  lang?: string;
}

export interface Page {
  id: string;
  url: string;
  source: string;
  type: string;
  html: string;
}

export const REPO_ROOT = resolve(import.meta.dir, '..');
export const DATASET_DIR = process.env.TRAWL_MAIN_CONTENT_DATASET ?? resolve(REPO_ROOT, '../shared/datasets/main-content');

/** Throws a clear error when the shared dataset is not next to the repo. */
export function assertDataset(dir = DATASET_DIR): void {
  if (!existsSync(join(dir, 'ground-truth.json')) || !existsSync(join(dir, 'evaluate.ts'))) {
    throw new Error(
      `main-content dataset not found at ${dir} (expected ground-truth.json, evaluate.ts and html/ there; it lives in ../shared/datasets/main-content next to the repo, or set TRAWL_MAIN_CONTENT_DATASET)`,
    );
  }
}

export function loadTruth(dir = DATASET_DIR): Record<string, Truth> {
  assertDataset(dir);
  return JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8'));
}

export function loadHtml(id: string, dir = DATASET_DIR): string {
  return gunzipSync(readFileSync(join(dir, 'html', `${id}.html.gz`))).toString('utf8');
}

export interface PageFilter {
  limit?: number;
  type?: string;
  source?: string;
  ids?: string[];
}

/** The ids to run, in ground-truth order, after the filters. `limit` spreads evenly over the set. */
export function selectIds(gt: Record<string, Truth>, filter: PageFilter): string[] {
  let ids = Object.keys(gt);
  if (filter.ids?.length) {
    const unknown = filter.ids.filter((id) => !(id in gt));
    if (unknown.length) throw new Error(`unknown page id(s): ${unknown.join(', ')}`);
    ids = filter.ids;
  }
  if (filter.type) ids = ids.filter((id) => gt[id]!.type === filter.type);
  if (filter.source) ids = ids.filter((id) => gt[id]!.source === filter.source);
  if (filter.limit && filter.limit < ids.length) {
    const step = ids.length / filter.limit;
    ids = Array.from({ length: filter.limit }, (_, i) => ids[Math.floor(i * step)]!);
  }
  return ids;
}

export function loadPages(gt: Record<string, Truth>, ids: string[], dir = DATASET_DIR): Page[] {
  return ids.map((id) => ({ id, url: gt[id]!.url, source: gt[id]!.source, type: gt[id]!.type, html: loadHtml(id, dir) }));
}

/** The dataset's own scorer, imported from its folder (tokens, scorePages, summarize). */
export interface Scorer {
  scorePages(gt: Record<string, Truth>, pred: Record<string, string>, ids: string[]): ScoreRow[];
  summarize(rows: ScoreRow[]): Summary;
}
export interface ScoreRow {
  id: string;
  source: string;
  type: string;
  tp: number;
  fp: number;
  fn: number;
  exact: boolean;
  empty: boolean;
  predTokens: number;
  trueTokens: number;
}
export interface Summary {
  f1: number;
  precision: number;
  recall: number;
  accuracy: number;
  empty: number;
  pages: number;
}

export async function loadScorer(dir = DATASET_DIR): Promise<Scorer> {
  assertDataset(dir);
  return (await import(join(dir, 'evaluate.ts'))) as Scorer;
}

/** Command-line options every dataset benchmark takes, plus its own; `out` defaults to bench/results/<name>.json. */
export function parseDatasetArgs<T extends Record<string, { type: 'string' | 'boolean'; default?: string | boolean }>>(
  name: string,
  extra: T,
) {
  const { values } = parseArgs({
    args: Bun.argv.slice(2),
    options: {
      limit: { type: 'string' },
      type: { type: 'string' },
      source: { type: 'string' },
      ids: { type: 'string' },
      out: { type: 'string', default: join(REPO_ROOT, `bench/results/${name}.json`) },
      ...extra,
    },
  });
  return values as Record<string, string | boolean | undefined> & {
    limit?: string;
    type?: string;
    source?: string;
    ids?: string;
    out: string;
  };
}

/** The pages selected by parsed options, with the truth and the dataset's scorer. */
export async function loadSelection(args: { limit?: string; type?: string; source?: string; ids?: string }) {
  const gt = loadTruth();
  const scorer = await loadScorer();
  const ids = selectIds(gt, {
    limit: args.limit ? Number(args.limit) : undefined,
    type: args.type,
    source: args.source,
    ids: args.ids
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  });
  return { gt, scorer, pages: loadPages(gt, ids) };
}

/** The filter as recorded in a results file. */
export const filterRecord = (args: { limit?: string; type?: string; source?: string; ids?: string }) => ({
  limit: args.limit ?? null,
  type: args.type ?? null,
  source: args.source ?? null,
  ids: args.ids ?? null,
});

/**
 * Every word the page's HTML holds as text: scripts and styles cut, every tag replaced by a space
 * (so cells and inline blocks never glue words together), entities decoded by a parse of the
 * tag-free rest. Its recall of the reference text is the ceiling for any extractor working on
 * the HTML alone: text a page renders client-side is not there to find.
 */
export function allTextOf(html: string): string {
  const bare = html
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ');
  return parseHtmlDocument(`<!doctype html><html><body>${bare.replace(/</g, '&lt;')}</body></html>`).body?.textContent ?? '';
}
