#!/usr/bin/env bun
/**
 * This checkout's scrape pipeline against another checkout's, in one process: every dev-set page
 * goes through both (html document → transforms → markdown of the main content, as the extraction
 * benchmark times it), page by page, the order alternating, so GC state, JIT warmth and the
 * machine's load swings hit both alike. Separate runs of one build differ by ±10% on a shared
 * machine; interleaved in one process, rounds agree within about 1%. Also counts the pages whose
 * markdown, metadata or main-content text differ between the two: a speed change should have none.
 *
 *   bun run bench pipeline-ab --base DIR [--rounds 3] [--limit N] [--out FILE]
 *
 * DIR is another checkout with its own `bun install` (a worktree: `git worktree add ../base main`),
 * so each side runs its own code and its own patched dependencies.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { textOf } from '../core/dom.ts';
import type { PageDocument } from '../core/document.ts';
import { datasetPipeline } from './dataset-pipeline.ts';
import { loadSelection, parseDatasetArgs } from './extraction-data.ts';

const args = parseDatasetArgs('pipeline-ab', { base: { type: 'string' }, rounds: { type: 'string', default: '3' } });
if (!args.base) throw new Error('--base DIR: the checkout to compare with is required');
const baseDir = resolve(args.base as string);
const { pages } = await loadSelection(args);
const ROUNDS = Number(args.rounds);

type Scrape = (page: (typeof pages)[number]) => Promise<PageDocument>;
const base = (await (await import(join(baseDir, 'bench/dataset-pipeline.ts'))).datasetPipeline()) as Scrape;
const head = await datasetPipeline();

/** What a user gets from a page, as one string to compare. */
const fingerprint = (doc: PageDocument) => JSON.stringify([doc.outputs.markdown, doc.metadata, doc.root ? textOf(doc.root) : '']);

// Warm-up and the output check in one: every page once through each.
const differ: string[] = [];
for (const page of pages) if (fingerprint(await base(page)) !== fingerprint(await head(page))) differ.push(page.id);

const rounds: Array<{ baseMs: number; headMs: number; ratio: number }> = [];
for (let r = 0; r < ROUNDS; r++) {
  const ms = { base: 0, head: 0 };
  for (const [i, page] of pages.entries()) {
    for (const side of (i + r) % 2 ? (['head', 'base'] as const) : (['base', 'head'] as const)) {
      const started = performance.now();
      await (side === 'base' ? base : head)(page);
      ms[side] += performance.now() - started;
    }
  }
  rounds.push({ baseMs: Math.round(ms.base), headMs: Math.round(ms.head), ratio: Math.round((ms.head / ms.base) * 1000) / 1000 });
  console.log(
    `round ${r + 1}: base ${rounds.at(-1)!.baseMs} ms, this checkout ${rounds.at(-1)!.headMs} ms, time ratio ${rounds.at(-1)!.ratio}`,
  );
}
console.log(`${pages.length} pages; outputs differ on ${differ.length}${differ.length ? `: ${differ.slice(0, 10).join(' ')}` : ''}`);

const out = args.out;
mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify({ date: new Date().toISOString(), bun: Bun.version, base: baseDir, pages: pages.length, differ, rounds }, null, 2)}\n`,
);
console.log(`written ${out}`);
