#!/usr/bin/env bun
/**
 * The language-model features on dev-set pages (../shared/datasets/main-content), three numbers
 * from one run:
 *
 * 1. Extraction overhead: POST /v1/extract (a schema given, `no_cache`) against a real `bun
 *    server/main.ts` process whose OpenAI-compatible provider is the test server
 *    (test/servers/openai.ts) answering at once, next to the named baseline — POST /v1/scrape of the
 *    same page into the `llm` format of its main content, the scrape extract runs by default
 *    (automatic rendering off: it would time Chromium). `--rounds` pairs per page, the order
 *    alternating; a page's overhead is the median of its (extract − scrape). Reported: the median
 *    over pages (target ≤ 30 ms).
 * 2. Prompt size: the tokens of everything the provider received for a page (system message with
 *    the schema, instruction, the page's llm text) against the tokens of the page's raw HTML,
 *    both o200k (gpt-tokenizer). Reported: median and p90 share (target: median ≤ 10%).
 * 3. Answers without a model: in process, per page, the extractive summary (TextRank, 5
 *    sentences) and the extractive answer (BM25 passages) of the page's text, next to the named
 *    baseline — the pipeline scrape of the same page (main content, from memory). Reported:
 *    median ms per page of each (target ≤ 50 ms) and as a share of the scrape.
 *
 *   bun run bench llm [--limit 80] [--rounds 3] [--type article] [--source wcxb] [--ids a,b] [--out path.json]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { countTokens } from 'gpt-tokenizer';
import { textOf } from '../core/dom.ts';
import { extractiveSummary } from '../core/llm/summarize/service.ts';
import { bestPassages } from '../plugins/format/query/passages.ts';
import { startServerProcess } from '../test/helpers/server-process.ts';
import { OPENAI_TEST_KEY, startOpenAiServer } from '../test/servers/openai.ts';
import { datasetPipeline } from './dataset-pipeline.ts';
import { assertDataset, filterRecord, loadSelection, parseDatasetArgs } from './extraction-data.ts';
import { quantile, TOKENIZER } from './llm-measure.ts';
import { median } from './stats.ts';

const args = parseDatasetArgs('llm', { rounds: { type: 'string', default: '3' } });
const ROUNDS = Number(args.rounds);
assertDataset();
const { pages } = await loadSelection({ ...args, limit: args.limit ?? '80' });
console.log(`${pages.length} pages`);

const round2 = (n: number) => Math.round(n * 100) / 100;
const SCHEMA = {
  type: 'object',
  properties: {
    title: { type: 'string' },
    topics: { type: 'array', items: { type: 'string' }, maxItems: 5 },
    author: { type: ['string', 'null'] },
  },
  required: ['title', 'topics'],
};

// The pages, served by id; the provider answers every call at once with a valid answer.
const byId = new Map(pages.map((p) => [p.id, p]));
const site = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch: (req) => {
    const page = byId.get(decodeURIComponent(new URL(req.url).pathname.slice(1)));
    return page
      ? new Response(page.html, { headers: { 'content-type': 'text/html; charset=utf-8' } })
      : new Response('not found', { status: 404 });
  },
});
const provider = startOpenAiServer({ answer: () => '{"title":"A page","topics":["one","two"],"author":null}' });
const server = await startServerProcess({
  env: {
    TRAWL_PLUGINS_LLM_OPENAI_MODEL: 'gpt-4o-mini',
    TRAWL_PLUGINS_LLM_OPENAI_API_KEY: OPENAI_TEST_KEY,
    TRAWL_PLUGINS_LLM_OPENAI_BASE_URL: `${provider.url}/v1`,
    // Rendering an app shell in Chromium would time the browser, not the extraction.
    TRAWL_PLUGINS_FETCHER_BROWSER_AUTO_RENDER: 'false',
  },
});

async function timed(
  path: string,
  body: Record<string, unknown>,
): Promise<{ ms: number; status: number; answer: Record<string, unknown> }> {
  const started = performance.now();
  const response = await server.post(path, body, { timeoutMs: 120_000 });
  const answer = (await response.json()) as Record<string, unknown>;
  return { ms: performance.now() - started, status: response.status, answer };
}

const overhead: Array<{
  id: string;
  extractMs: number;
  scrapeMs: number;
  overheadMs: number;
  promptTokens: number;
  rawTokens: number;
  share: number;
}> = [];
const skipped: Array<{ id: string; why: string }> = [];
try {
  // Warm-up: content workers started, the schema compiled, code paths hot.
  for (const page of pages.slice(0, 3)) {
    await timed('/v1/scrape', { url: `${site.url}${page.id}`, formats: ['llm'], only_main_content: true, no_cache: true });
    await timed('/v1/extract', { url: `${site.url}${page.id}`, schema: SCHEMA, no_cache: true });
  }
  for (const page of pages) {
    const url = `${site.url}${page.id}`;
    const pairs: Array<{ scrapeMs: number; extractMs: number }> = [];
    let promptTokens = 0;
    let failed = '';
    // A few pairs per page, the order alternating, so neither side always runs on a warmer machine.
    for (let round = 0; round < ROUNDS && !failed; round++) {
      provider.conversations.length = 0;
      const scrapeFirst = round % 2 === 0;
      const first = scrapeFirst
        ? await timed('/v1/scrape', { url, formats: ['llm'], only_main_content: true, no_cache: true })
        : await timed('/v1/extract', { url, schema: SCHEMA, no_cache: true });
      const second = scrapeFirst
        ? await timed('/v1/extract', { url, schema: SCHEMA, no_cache: true })
        : await timed('/v1/scrape', { url, formats: ['llm'], only_main_content: true, no_cache: true });
      const [scrape, extract] = scrapeFirst ? [first, second] : [second, first];
      if (scrape.status !== 200 || extract.status !== 200)
        failed = `scrape ${scrape.status}, extract ${extract.status}: ${String(extract.answer.error ?? scrape.answer.error ?? '').slice(0, 120)}`;
      pairs.push({ scrapeMs: scrape.ms, extractMs: extract.ms });
      promptTokens = provider.conversations.reduce((n, c) => n + countTokens(c.messages.map((m) => m.content).join('\n')), 0);
    }
    if (failed) {
      skipped.push({ id: page.id, why: failed });
      continue;
    }
    const rawTokens = countTokens(page.html);
    overhead.push({
      id: page.id,
      extractMs: round2(median(pairs.map((p) => p.extractMs))),
      scrapeMs: round2(median(pairs.map((p) => p.scrapeMs))),
      overheadMs: round2(median(pairs.map((p) => p.extractMs - p.scrapeMs))),
      promptTokens,
      rawTokens,
      share: promptTokens / rawTokens,
    });
  }
} finally {
  await server.stop();
  await provider.stop();
  site.stop(true);
}

// Without a model: the extractive work on each page's text, next to the page's pipeline scrape.
const scrape = await datasetPipeline();
const extractive: Array<{ id: string; scrapeMs: number; summaryMs: number; queryMs: number; sentences: number }> = [];
for (const page of [...pages.slice(0, 3), ...pages]) {
  const started = performance.now();
  const doc = await scrape(page);
  const scrapeMs = performance.now() - started;
  const text = doc.root ? textOf(doc.root) : '';
  const question = `What does the page say about ${doc.metadata.title || 'its subject'}?`;
  const summaryStarted = performance.now();
  const summary = extractiveSummary(text, doc.metadata.language, 5);
  const queryStarted = performance.now();
  bestPassages(text, question, doc.metadata.language, 3);
  const done = performance.now();
  extractive.push({
    id: page.id,
    scrapeMs: round2(scrapeMs),
    summaryMs: round2(queryStarted - summaryStarted),
    queryMs: round2(done - queryStarted),
    sentences: summary ? summary.split(/(?<=[.!?]) /).length : 0,
  });
}
extractive.splice(0, 3); // the warm-up pages

const summary = {
  extractOverhead: {
    baseline: 'POST /v1/scrape of the same page into the llm format of its main content (the scrape extract runs)',
    pages: overhead.length,
    medianScrapeMs: round2(median(overhead.map((o) => o.scrapeMs))),
    medianExtractMs: round2(median(overhead.map((o) => o.extractMs))),
    medianOverheadMs: round2(median(overhead.map((o) => o.overheadMs))),
    p90OverheadMs: round2(
      quantile(
        overhead.map((o) => o.overheadMs),
        0.9,
      ),
    ),
    medianRatio: round2(median(overhead.map((o) => o.extractMs / o.scrapeMs))),
    target: '<= 30',
  },
  promptTokens: {
    baseline: 'the raw HTML of the page',
    tokenizer: TOKENIZER,
    medianShare: Math.round(median(overhead.map((o) => o.share)) * 10_000) / 10_000,
    p90Share:
      Math.round(
        quantile(
          overhead.map((o) => o.share),
          0.9,
        ) * 10_000,
      ) / 10_000,
    medianPromptTokens: median(overhead.map((o) => o.promptTokens)),
    medianRawTokens: median(overhead.map((o) => o.rawTokens)),
    target: 'median <= 0.10',
  },
  extractive: {
    baseline: 'the pipeline scrape of the same page (main content, from memory)',
    pages: extractive.length,
    medianScrapeMs: round2(median(extractive.map((e) => e.scrapeMs))),
    medianSummaryMs: round2(median(extractive.map((e) => e.summaryMs))),
    p90SummaryMs: round2(
      quantile(
        extractive.map((e) => e.summaryMs),
        0.9,
      ),
    ),
    medianQueryMs: round2(median(extractive.map((e) => e.queryMs))),
    p90QueryMs: round2(
      quantile(
        extractive.map((e) => e.queryMs),
        0.9,
      ),
    ),
    medianSummaryToScrape: round2(median(extractive.map((e) => e.summaryMs / e.scrapeMs))),
    medianQueryToScrape: round2(median(extractive.map((e) => e.queryMs / e.scrapeMs))),
    target: '<= 50 ms median per page, each',
  },
  skipped,
};
console.log(JSON.stringify(summary, null, 2));
mkdirSync(dirname(args.out), { recursive: true });
writeFileSync(
  args.out,
  `${JSON.stringify({ date: new Date().toISOString(), bun: Bun.version, filter: filterRecord(args), summary, overhead, extractive }, null, 2)}\n`,
);
console.log(`results: ${args.out}`);
