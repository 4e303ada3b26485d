/**
 * One row of the extraction benchmark, in a process of its own: bench/extraction.ts starts one
 * `bun bench/extraction-row.ts <row>` per system and hands each the same chunks of pages in turn
 * over IPC, so one system's garbage (jsdom's above all) is never collected on another's time.
 * Rows: `trawl` (the scrape pipeline a user's request runs, dataset-pipeline.ts, less a leading
 * title heading the page's truth leaves out: headline-adapter.ts), `readability` (0.6.0 on
 * linkedom's own parser, the fast DOM it is commonly run on) and `readability-jsdom` (on jsdom,
 * its usual standard-conformant DOM): parse → `new Readability(doc).parse().textContent`.
 */
import { Readability } from '@mozilla/readability';
import { JSDOM, VirtualConsole } from 'jsdom';
import { parseHTML } from 'linkedom';
import { textOf } from '../core/dom.ts';
import type { Page } from './extraction-data.ts';
import { datasetPipeline } from './dataset-pipeline.ts';
import { scoredText } from './headline-adapter.ts';

/** A page as the parent sends it: the page and its truth (the headline adapter reads it). */
export type RowPage = Page & { truth: string };

export interface RowReply {
  /** Plain text per page id, for scoring. */
  text: Record<string, string>;
  /** Timed path over the chunk, milliseconds. */
  ms: number;
  /** Trawl only: parse + metadata + transforms, markdown characters, errors by page id. */
  extractMs: number;
  markdownChars: number;
  errors: Record<string, string>;
}

export const ROWS = ['trawl', 'readability', 'readability-jsdom'] as const;
export type RowName = (typeof ROWS)[number];

type RunPage = (page: RowPage, out: RowReply) => Promise<void> | void;

async function trawlRow(): Promise<RunPage> {
  const scrape = await datasetPipeline();
  return async (page, out) => {
    const t0 = performance.now();
    let root: Element | null = null;
    let dom: Document | null = null;
    try {
      const doc = await scrape(page);
      out.extractMs += (doc.timings.detect ?? 0) + (doc.timings.transform ?? 0);
      out.markdownChars += String(doc.outputs.markdown ?? '').length;
      root = doc.root;
      dom = doc.dom;
    } catch (e) {
      out.errors[page.id] = e instanceof Error ? e.message : String(e);
    }
    out.ms += performance.now() - t0;
    // (plain text for scoring is taken outside the timer)
    out.text[page.id] = root && dom ? scoredText(textOf(root), root, dom, page.truth) : '';
  };
}

/** A baseline DOM: the parsed page, and what to release after Readability has read it. */
type BaselineDom = (html: string) => { document: Document; close?: () => void };
const onLinkedom: BaselineDom = (html) => ({ document: parseHTML(html).document as unknown as Document });
const onJsdom: BaselineDom = (html) => {
  // (its console reports every stylesheet it cannot parse; nobody reads them here)
  const { window } = new JSDOM(html, { virtualConsole: new VirtualConsole() });
  return { document: window.document, close: () => window.close() };
};

function readabilityRow(dom: BaselineDom): RunPage {
  return (page, out) => {
    const t0 = performance.now();
    let text = '';
    let close: (() => void) | undefined;
    try {
      const parsed = dom(page.html);
      close = parsed.close;
      text = new Readability(parsed.document as any).parse()?.textContent ?? '';
    } catch {
      text = '';
    }
    out.ms += performance.now() - t0;
    close?.();
    out.text[page.id] = text;
  };
}

if (import.meta.main) {
  const row = Bun.argv[2] as RowName;
  if (!ROWS.includes(row)) throw new Error(`unknown row ${row}; rows: ${ROWS.join(', ')}`);
  const run = row === 'trawl' ? await trawlRow() : readabilityRow(row === 'readability' ? onLinkedom : onJsdom);
  process.on('message', async (pages: RowPage[]) => {
    const out: RowReply = { text: {}, ms: 0, extractMs: 0, markdownChars: 0, errors: {} };
    for (const page of pages) await run(page, out);
    process.send!(out);
  });
  process.send!('ready');
}
