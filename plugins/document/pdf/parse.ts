/**
 * The PDF parser (runs in a content worker): structure and decompression checks, then
 * pdf-parse (pdf.js) for metadata and, page by page up to the page cap, the positioned text items
 * that lines.ts and blocks.ts turn into headings, paragraphs, lists and tables.
 */
import { PDFParse } from 'pdf-parse';
import type { DocumentParser, ParsedDocument } from '../shared/types.ts';
import { DocumentRefusal } from '../shared/types.ts';
import { note } from '../../../core/kit.ts';
import { checkPdfStructure, checkStreamBudget } from './scan.ts';
import { dropRunningHeaders, groupLines, readingOrder, type PageLines, type TextRun } from './lines.ts';
import { renderBlocks } from './blocks.ts';

export interface PdfParseOptions {
  maxPages: number;
  maxDecompressedBytes: number;
  pageMarkers: boolean;
}

/** The slice of pdf.js's document and page API this parser reads. */
interface PdfTextItem {
  str?: string;
  transform?: number[];
  width?: number;
  height?: number;
}
interface PdfPage {
  getViewport(params: { scale: number }): { width: number; height: number; convertToViewportPoint(x: number, y: number): number[] };
  getTextContent(): Promise<{ items: PdfTextItem[] }>;
  cleanup(): void;
}
interface PdfDocument {
  getPage(number: number): Promise<PdfPage>;
}

/**
 * pdf-parse 2.4.5 keeps the pdf.js document it loaded in a private field. Its public getText()
 * flattens text to strings and loses the font sizes and positions structure is rebuilt from, so
 * the per-page text items are read from that document; the pinned version and the tests guard it.
 */
function loadedDocument(parser: PDFParse): PdfDocument {
  const doc = (parser as unknown as { doc?: PdfDocument }).doc;
  if (!doc) throw new Error('pdf-parse did not expose its loaded document');
  return doc;
}

/** pdf.js errors, by name, into the reason the user reads. */
function refusalFor(err: unknown): DocumentRefusal {
  const name = (err as Error)?.name ?? '';
  const message = (err as Error)?.message ?? String(err);
  if (name === 'PasswordException') return new DocumentRefusal('the file is encrypted and needs a password');
  if (name === 'InvalidPDFException') return new DocumentRefusal('the file is corrupt (invalid PDF structure)');
  return new DocumentRefusal(`the file is corrupt (${message})`);
}

function runsOf(items: PdfTextItem[], viewport: ReturnType<PdfPage['getViewport']>): TextRun[] {
  const runs: TextRun[] = [];
  for (const item of items) {
    const t = item.transform;
    if (!item.str?.trim() || !t) continue;
    // Rotated text (watermarks, margin labels) has no place in the reading order.
    if (Math.abs(t[1]!) > 0.01 || Math.abs(t[2]!) > 0.01) continue;
    const [x, y] = viewport.convertToViewportPoint(t[4]!, t[5]!);
    runs.push({ text: item.str, x: x!, y: y!, width: item.width ?? 0, size: Math.abs(t[3]!) || item.height || 10 });
  }
  return runs;
}

const clean = (value: unknown) => (typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() || null : null);

export const parse: DocumentParser<PdfParseOptions> = async (bytes, options) => {
  checkPdfStructure(bytes);
  await checkStreamBudget(bytes, options.maxDecompressedBytes);
  // No eval: pdf.js may otherwise compile font programs from the file into JavaScript.
  // pdf.js takes ownership of (detaches) the buffer it is given; the caller keeps its own.
  const parser = new PDFParse({ data: bytes.slice(), isEvalSupported: false, verbosity: 0 });
  try {
    const info = await parser.getInfo().catch((err: unknown) => {
      throw refusalFor(err);
    });
    const doc = loadedDocument(parser);
    const total = info.total;
    const count = Math.min(total, options.maxPages);
    const pages: PageLines[] = [];
    for (let number = 1; number <= count; number++) {
      const page = await doc.getPage(number).catch((err: unknown) => {
        throw refusalFor(err);
      });
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent().catch((err: unknown) => {
        throw refusalFor(err);
      });
      pages.push({ number, width: viewport.width, height: viewport.height, lines: groupLines(number, runsOf(content.items, viewport)) });
      page.cleanup();
    }
    dropRunningHeaders(pages);
    const ordered = pages.map((p) => ({ number: p.number, lines: readingOrder(p) }));
    const warnings: string[] = [];
    let html = renderBlocks(ordered, { pageMarkers: options.pageMarkers, totalPages: total });
    if (!ordered.some((p) => p.lines.length)) {
      warnings.push('The PDF has no extractable text; it may be scanned images (OCR is not supported)');
      html += note('This PDF has no extractable text; it may consist of scanned images.');
    }
    if (count < total) {
      warnings.push(`Only the first ${count} of ${total} pages were read (plugins.document.pdf.maxPages)`);
      html += note(`Only the first ${count} of ${total} pages were read.`);
    }
    const fields = (info.info ?? {}) as Record<string, unknown>;
    const dates = info.getDateNode();
    const created = dates.CreationDate ?? dates.XmpCreateDate ?? null;
    const result: ParsedDocument = {
      html,
      warnings,
      metadata: {
        title: clean(fields.Title) ?? clean(info.metadata?.get('dc:title')),
        author: clean(fields.Author) ?? clean(info.metadata?.get('dc:creator')),
        description: clean(fields.Subject),
        publishedDate: created && !Number.isNaN(created.getTime()) ? created.toISOString() : null,
        language: clean(fields.Language),
        keywords: clean(fields.Keywords),
        pageCount: total,
      },
    };
    return result;
  } finally {
    await parser.destroy().catch(() => {});
  }
};
