#!/usr/bin/env bun
/**
 * Document throughput: `bun run bench documents [--runs N] [--out path.json]`.
 *
 * For each type, a realistic generated document is parsed N rounds (after two warm-up rounds) two
 * ways, taking turns within each round: Trawl's parser (as a content worker runs it, on its own
 * thread, with the bytes the page already brought) and a baseline — the library's own plain
 * extraction (pdf-parse getText, mammoth extractRawText, exceljs full load, papaparse with its own
 * delimiter guess). Throughput is pages, paragraphs or rows and MB per second of the median run;
 * ratios are Trawl ÷ baseline time. Also times how fast hostile files are refused.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import ExcelJS from 'exceljs';
import mammoth from 'mammoth';
import Papa from 'papaparse';
import { PDFParse } from 'pdf-parse';
import { parse as parsePdf } from '../plugins/document/pdf/parse.ts';
import { parse as parseDocx } from '../plugins/document/docx/parse.ts';
import { parse as parseXlsx } from '../plugins/document/xlsx/parse.ts';
import { parse as parseCsv } from '../plugins/document/csv/parse.ts';
import { pdfDocument } from '../plugins/document/pdf/pdf.ts';
import { docxDocument } from '../plugins/document/docx/docx.ts';
import { xlsxDocument } from '../plugins/document/xlsx/xlsx.ts';
import { csvDocument } from '../plugins/document/csv/csv.ts';
import { bombPdf, longPdf } from '../plugins/document/pdf/fixtures/samples.ts';
import { longDocx } from '../plugins/document/docx/fixtures/samples.ts';
import { ledgerXlsx } from '../plugins/document/xlsx/fixtures/samples.ts';
import { writeZip } from '../plugins/document/shared/fixtures/zip-writer.ts';
import type { DocumentParser } from '../plugins/document/shared/types.ts';

const { values: args } = parseArgs({
  args: Bun.argv.slice(2),
  options: { runs: { type: 'string', default: '5' }, out: { type: 'string', default: join(import.meta.dir, 'results/documents.json') } },
});
const RUNS = Math.max(1, Number(args.runs));

/**
 * Median milliseconds of each variant. The variants take turns within every round, so a burst of
 * load on this shared machine slows all of them alike and the ratios stay fair.
 */
async function medians(variants: Array<() => Promise<unknown>>): Promise<number[]> {
  // Two warm-up rounds: pdf.js and exceljs keep getting faster over the first runs (JIT).
  for (let round = 0; round < 2; round++) for (const run of variants) await run();
  const times = variants.map(() => [] as number[]);
  for (let round = 0; round < RUNS; round++) {
    for (const [i, run] of variants.entries()) {
      const started = performance.now();
      await run();
      times[i]!.push(performance.now() - started);
    }
  }
  return times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)]!);
}

interface Case {
  type: string;
  /** What one unit of work is, and how many the document has. */
  unit: string;
  units: number;
  bytes: Uint8Array;
  parse: DocumentParser<never>;
  options: Record<string, unknown>;
  baseline: { name: string; run: (bytes: Uint8Array) => Promise<unknown> };
}

const defaults = (plugin: { options?: { parse(v: unknown): unknown } }, extra: Record<string, unknown> = {}) => ({
  ...(plugin.options!.parse({}) as object),
  ...extra,
});

console.log(`generating documents… (${RUNS} timed runs each, median)`);
const ROWS = 20_000;
const csvText = [
  'id,name,amount,date,region,memo',
  ...Array.from(
    { length: ROWS },
    (_, i) =>
      `${i},"Customer ${i}",${(i * 1.5).toFixed(2)},2024-01-${String((i % 28) + 1).padStart(2, '0')},${i % 2 ? 'North' : 'South'},"paid, in full"`,
  ),
].join('\n');
const cases: Case[] = [
  {
    type: 'pdf',
    unit: 'pages',
    units: 50,
    bytes: await longPdf(50),
    parse: parsePdf as DocumentParser<never>,
    options: defaults(pdfDocument),
    baseline: {
      name: 'pdf-parse getText()',
      run: async (b) => {
        const p = new PDFParse({ data: b.slice() });
        try {
          return await p.getText();
        } finally {
          await p.destroy();
        }
      },
    },
  },
  {
    type: 'docx',
    unit: 'paragraphs',
    units: 200 * 6,
    bytes: await longDocx(200),
    parse: parseDocx as DocumentParser<never>,
    options: defaults(docxDocument),
    baseline: { name: 'mammoth extractRawText()', run: (b) => mammoth.extractRawText({ buffer: Buffer.from(b) }) },
  },
  {
    type: 'xlsx',
    unit: 'rows',
    units: 5000,
    bytes: await ledgerXlsx(ROWS),
    parse: parseXlsx as DocumentParser<never>,
    options: defaults(xlsxDocument),
    baseline: {
      name: 'exceljs xlsx.load() (whole workbook)',
      run: (b) => new ExcelJS.Workbook().xlsx.load(Buffer.from(b) as unknown as ArrayBuffer),
    },
  },
  {
    type: 'xlsx (no row cap)',
    unit: 'rows',
    units: ROWS,
    bytes: await ledgerXlsx(ROWS),
    parse: parseXlsx as DocumentParser<never>,
    options: defaults(xlsxDocument, { maxRows: 500_000, maxCells: 10_000_000 }),
    baseline: {
      name: 'exceljs xlsx.load() (whole workbook)',
      run: (b) => new ExcelJS.Workbook().xlsx.load(Buffer.from(b) as unknown as ArrayBuffer),
    },
  },
  {
    type: 'csv',
    unit: 'rows',
    units: ROWS,
    bytes: new TextEncoder().encode(csvText),
    parse: parseCsv as DocumentParser<never>,
    options: defaults(csvDocument, { maxRows: 500_000, maxCells: 10_000_000 }),
    baseline: { name: 'papaparse (own delimiter guess)', run: async (b) => Papa.parse(new TextDecoder().decode(b)) },
  },
];

const rows: Array<Record<string, string | number>> = [];
for (const c of cases) {
  const [inThread, baseline] = (await medians([() => c.parse(c.bytes, c.options as never), () => c.baseline.run(c.bytes)])) as [
    number,
    number,
  ];
  const mb = c.bytes.byteLength / 1024 / 1024;
  rows.push({
    type: c.type,
    size_mb: Number(mb.toFixed(2)),
    units: `${c.units} ${c.unit}`,
    trawl_ms: Math.round(inThread),
    units_per_s: Math.round(c.units / (inThread / 1000)),
    mb_per_s: Number((mb / (inThread / 1000)).toFixed(2)),
    baseline: c.baseline.name,
    baseline_ms: Math.round(baseline),
    ratio_vs_baseline: Number((inThread / baseline).toFixed(2)),
  });
}

const zipBomb = writeZip([{ name: 'word/document.xml', data: new Uint8Array(256 * 1024 * 1024), declaredSize: 4096 }]);
const pdfBomb = await bombPdf(512 * 1024 * 1024);
const refusals: Array<Record<string, string | number>> = [];
for (const [name, bytes, parse, options] of [
  ['DOCX zip bomb (256 MB in 0.25 MB, size lies)', zipBomb, parseDocx, defaults(docxDocument)],
  ['PDF decompression bomb (512 MB content stream)', pdfBomb, parsePdf, defaults(pdfDocument)],
] as const) {
  const [ms] = (await medians([
    () =>
      (parse as DocumentParser<unknown>)(bytes, options).then(
        () => {
          throw new Error(`${name} was not refused`);
        },
        () => undefined,
      ),
  ])) as [number];
  refusals.push({ case: name, file_mb: Number((bytes.byteLength / 1024 / 1024).toFixed(2)), refused_in_ms: Number(ms.toFixed(1)) });
}

console.table(rows);
console.table(refusals);
const result = { date: new Date().toISOString(), bun: Bun.version, runs: RUNS, throughput: rows, refusals };
mkdirSync(dirname(args.out!), { recursive: true });
writeFileSync(args.out!, `${JSON.stringify(result, null, 2)}\n`);
console.log(`results: ${args.out}`);
