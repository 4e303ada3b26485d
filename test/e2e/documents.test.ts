/**
 * End to end: documents served by a local site, scraped through /v1/scrape into markdown, text
 * and json — PDF, DOCX, XLSX and CSV made by real writers — including Content-Types that lie or
 * say nothing, every hostile case (encrypted, corrupt, truncated, bombs, oversize, too many
 * entries) with its status and message, and the CLI on each type.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import iconv from 'iconv-lite';
import { startFixtureSite, type FixtureSite, type Route } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { bombPdf, corruptPdf, encryptedPdf, longPdf, reportPdf, truncatedPdf } from '../../plugins/document/pdf/fixtures/samples.ts';
import { handbookDocx } from '../../plugins/document/docx/fixtures/samples.ts';
import { budgetXlsx } from '../../plugins/document/xlsx/fixtures/samples.ts';
import { readZip, writeZip } from '../../plugins/document/shared/fixtures/zip-writer.ts';
import { runCli } from '../helpers/cli.ts';

// Real documents are built and parsed here; on a busy shared machine that can outlast Bun's 5 s
// default (this Bun does not apply bunfig's test timeout).
setDefaultTimeout(30_000);

const MiB = 1024 * 1024;
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const FARES = 'Route;Fare (£);Notes\nNorth Sound;4,50;"Runs hourly;\nextra on market days"\nOuter Isles;12,00;Weather permitting\n';

let site: FixtureSite;
let server: TestServer;
const file =
  (body: Uint8Array | string, type: string | null, headers: Record<string, string> = {}): Route =>
  () =>
    new Response(typeof body === 'string' ? body : new Uint8Array(body), {
      headers: { ...(type ? { 'content-type': type } : {}), ...headers },
    });

beforeAll(async () => {
  const [pdf, docx, xlsx] = await Promise.all([reportPdf(), handbookDocx(), budgetXlsx()]);
  const docxEntries = readZip(docx);
  site = startFixtureSite({
    '/files/report.pdf': file(pdf, 'application/pdf'),
    '/lying/report': file(pdf, 'text/html; charset=utf-8'),
    '/download': file(pdf, 'application/octet-stream'),
    '/files/handbook.docx': file(docx, DOCX_TYPE),
    '/blob/8812': file(docx, 'application/octet-stream'),
    '/files/budget.xlsx': file(xlsx, 'application/octet-stream'),
    '/files/fares.csv': file(iconv.encode(FARES, 'win1252'), 'text/csv'),
    '/export': file(FARES, 'text/plain; charset=utf-8', { 'content-disposition': 'attachment; filename="fares.csv"' }),
    '/hostile/encrypted.pdf': file(await encryptedPdf(), 'application/pdf'),
    '/hostile/corrupt.pdf': file(corruptPdf(), 'application/pdf'),
    '/hostile/truncated.pdf': file(await truncatedPdf(), 'application/pdf'),
    '/hostile/bomb.pdf': file(await bombPdf(16 * MiB), 'application/pdf'),
    '/hostile/long.pdf': file(await longPdf(5), 'application/pdf'),
    '/hostile/bomb.docx': file(
      writeZip(docxEntries.map((e) => (e.name === 'word/document.xml' ? { ...e, data: new Uint8Array(32 * MiB), declaredSize: 4096 } : e))),
      DOCX_TYPE,
    ),
    '/hostile/huge.xlsx': file(writeZip([...readZip(xlsx), { name: 'xl/media/fill.bin', data: new Uint8Array(24 * MiB) }]), XLSX_TYPE),
    '/hostile/crowded.docx': file(
      writeZip([...docxEntries, ...Array.from({ length: 300 }, (_, i) => ({ name: `word/media/${i}.bin`, data: 'x' }))]),
      DOCX_TYPE,
    ),
    '/hostile/not-a-docx.docx': file(writeZip([{ name: 'readme.txt', data: 'hello' }]), DOCX_TYPE),
    '/hostile/big.csv': file(`a,b\n${'1,2\n'.repeat(300_000)}`, 'text/csv'),
  });
  server = await startTrawlServer({
    overrides: {
      plugins: {
        document: {
          pdf: { maxDecompressedBytes: 8 * MiB, maxPages: 3 },
          docx: { maxEntries: 200, maxDecompressedBytes: 64 * MiB },
          xlsx: { maxDecompressedBytes: 16 * MiB, maxCompressionRatio: 100_000 },
          csv: { maxBytes: MiB },
        },
      },
    },
  });
});
afterAll(async () => {
  await server.stop();
  await site.stop();
});

const scrape = (path: string, formats = ['markdown']) => server.post('/v1/scrape', { url: site.at(path), formats, no_cache: true });

describe('PDF', () => {
  test('markdown, text and json', async () => {
    const res = await scrape('/files/report.pdf', ['markdown', 'text', 'json']);
    expect(res.status).toBe(200);
    const md: string = res.body.markdown;
    expect(md).toStartWith('# Harbour Authority Annual Report\n\n## Ferry operations\n\nFerries leave the northern pier');
    expect(md).toContain(
      '| Route | Sailings | Delay (min) |\n| --- | --- | --- |\n| North Sound | 1,204 | 2.5 |\n| South Ferry | 986 | 1.0 |\n| Outer Isles | 312 | 7.25 |',
    );
    expect(md).toContain('- Two new vessels entered service\n- Waiting times fell by a third');
    expect(md).toContain('1. Renew the ticket machines\n2. Extend the winter timetable');
    expect(res.body.text).toContain('Sailings by route\n\nRoute Sailings Delay (min)');
    expect(res.body.text).not.toContain('#');
    expect(res.body.metadata).toMatchObject({
      title: 'Harbour Authority Annual Report',
      author: 'Morag Lindsay',
      published_date: '2025-02-03T10:00:00.000Z',
      page_count: 2,
      status_code: 200,
    });
    expect(res.body.metadata.word_count).toBeGreaterThan(150);
    expect(res.body.extraction.content.markdown).toBe(md);
    expect(res.body.extraction.metadata.page_count).toBe(2);
    expect(res.body.warnings).toBeUndefined();
  });

  test('magic bytes win over a lying or empty Content-Type', async () => {
    for (const path of ['/lying/report', '/download?id=42']) {
      const res = await scrape(path, ['text']);
      expect(res.status).toBe(200);
      expect(res.body.text).toStartWith('Harbour Authority Annual Report\n\nFerry operations');
      expect(res.body.metadata.page_count).toBe(2);
    }
  });

  test('the page cap reads the first pages and says so', async () => {
    const res = await scrape('/hostile/long.pdf');
    expect(res.status).toBe(200);
    expect(res.body.markdown).toContain('# Chapter 3');
    expect(res.body.markdown).not.toContain('Chapter 4');
    expect(res.body.markdown).toEndWith('_Only the first 3 of 5 pages were read._');
    expect(res.body.warnings).toEqual(['document.pdf: Only the first 3 of 5 pages were read (plugins.document.pdf.maxPages)']);
  });
});

describe('DOCX', () => {
  test('markdown, text and json', async () => {
    const res = await scrape('/files/handbook.docx', ['markdown', 'text', 'json']);
    expect(res.status).toBe(200);
    const md: string = res.body.markdown;
    expect(md).toStartWith(
      '# Ferry Handbook\n\n# Getting aboard\n\nArrive **early** and _relax_.\\[1\\]\n\nSee [the timetable](https://ferries.example/timetable) for sailings.\n\n## Tickets\n\n- Buy online\n- Or at the pier\n\n1. Show your ticket\n2. Board by the ramp',
    );
    expect(md).toContain(
      '| Route | Price | Crossing |\n| --- | --- | --- |\n| North Sound | £4.50 | 25 min |\n| Outer Isles | £12 | 2 h |',
    );
    expect(md).toContain('> Mind the gap between the ramp and the deck.');
    expect(md).toEndWith('## Footnotes\n\n1. Timetables change in winter.');
    expect(res.body.text).toContain('Arrive early and relax.[1]');
    expect(res.body.metadata).toMatchObject({
      title: 'Ferry Handbook',
      author: 'Grace Hopper',
      description: 'How the island ferries run',
      published_date: '2024-05-06T07:08:09.000Z',
      language: 'en-GB',
    });
    expect(res.body.extraction.links).toEqual([{ text: 'the timetable', href: 'https://ferries.example/timetable' }]);
  });

  test('a DOCX without an extension, served as octet-stream', async () => {
    const res = await scrape('/blob/8812', ['text']);
    expect(res.status).toBe(200);
    expect(res.body.text).toStartWith('Ferry Handbook\n\nGetting aboard\n\nArrive early and relax.');
  });
});

describe('XLSX', () => {
  test('a section per sheet with its table; markdown, text and json', async () => {
    const res = await scrape('/files/budget.xlsx', ['markdown', 'text', 'json']);
    expect(res.status).toBe(200);
    const md: string = res.body.markdown;
    expect(md).toStartWith(
      '## Q1 Sales\n\n| Region | Amount | Date |\n| --- | --- | --- |\n| North | 10.5 | 2024-03-01 |\n| South | 0.3 | 2024-03-02T14:30:00Z |\n| Total | 10.8 | \\=NOW() |\n| Figures are provisional |  |  |\n| Checked by **Morag** | TRUE | #DIV/0! |\n| Opening |  | 09:15:00 |',
    );
    expect(md).toContain('## Notes\n\n| Topic | Note |\n| --- | --- |\n| Fuel | Prices rose in March, then fell |');
    expect(md).toContain('## Empty\n\n_This sheet is empty._');
    expect(md).not.toContain('secret');
    expect(res.body.text).toContain('Q1 Sales\n\nRegion Amount Date');
    expect(res.body.metadata).toMatchObject({ title: 'Harbour Budget', author: 'Ada Lovelace', sheet_count: 4 });
    expect(res.body.extraction.content.text).toBe(res.body.text);
  });
});

describe('CSV', () => {
  test('windows-1252, semicolons, quoted newlines: one table with its header row', async () => {
    const res = await scrape('/files/fares.csv', ['markdown', 'text', 'json']);
    expect(res.status).toBe(200);
    expect(res.body.markdown).toBe(
      '| Route | Fare (£) | Notes |\n| --- | --- | --- |\n| North Sound | 4,50 | Runs hourly; extra on market days |\n| Outer Isles | 12,00 | Weather permitting |',
    );
    expect(res.body.text).toContain('North Sound 4,50 Runs hourly;');
    expect(res.body.metadata).toMatchObject({ title: 'fares.csv', row_count: 2, column_count: 3, delimiter: ';', charset: 'windows-1252' });
    expect(res.body.extraction.metadata.row_count).toBe(2);
  });

  test('text/plain with a .csv attachment name is a CSV', async () => {
    const res = await scrape('/export', ['markdown']);
    expect(res.body.markdown).toStartWith('| Route | Fare (£) | Notes |');
    expect(res.body.metadata.title).toBe('fares.csv');
  });
});

describe('hostile and broken files', () => {
  test.each([
    ['/hostile/encrypted.pdf', 'Could not read PDF: the file is encrypted and needs a password'],
    ['/hostile/corrupt.pdf', 'Could not read PDF: the file is corrupt (invalid PDF structure)'],
    ['/hostile/truncated.pdf', 'Could not read PDF: the file is truncated (its end-of-file marker is missing)'],
    ['/hostile/bomb.pdf', 'Could not read PDF: its compressed content expands to more than 8 MB (refused as a likely decompression bomb)'],
    ['/hostile/bomb.docx', 'Could not read DOCX: entry word/document.xml expands past its declared size (refused as a likely zip bomb)'],
    ['/hostile/huge.xlsx', 'Could not read XLSX: the archive expands to more than 16 MB (refused as a likely zip bomb)'],
    ['/hostile/crowded.docx', 'Could not read DOCX: the archive has 317 entries, over the limit of 200 (refused as a likely zip bomb)'],
    ['/hostile/not-a-docx.docx', 'Could not read DOCX: it is not a Word document (word/document.xml is missing)'],
    ['/hostile/big.csv', 'Could not read CSV: the file is 1.1 MB, over the 1 MB limit'],
  ])('%s → 422', async (path, message) => {
    const res = await scrape(path);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ error: message });
  });

  test('a parse over its time limit is stopped: 422, and the service carries on', async () => {
    const hasty = await startTrawlServer({ overrides: { plugins: { document: { pdf: { timeoutMs: 1 } } } } });
    try {
      const res = await hasty.post('/v1/scrape', { url: site.at('/files/report.pdf') });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ error: 'Could not read PDF: parsing took longer than 1 ms' });
      expect((await hasty.post('/v1/scrape', { url: site.at('/files/fares.csv') })).status).toBe(200);
    } finally {
      await hasty.stop();
    }
  });

  test('the service is unharmed afterwards', async () => {
    const res = await scrape('/files/report.pdf', ['text']);
    expect(res.status).toBe(200);
    expect((await server.get('/health')).status).toBe(200);
  });
});

test('OpenAPI documents the document metadata and the refusal wording; /v1/plugins lists the limits', async () => {
  const openapi = (await server.get('/openapi.json')).body;
  expect(Object.keys(openapi.components.schemas.Metadata.properties)).toEqual(
    expect.arrayContaining(['page_count', 'sheet_count', 'row_count', 'transcript_language']),
  );
  expect(openapi.paths['/v1/scrape'].post.description).toContain('Could not read PDF: the file is encrypted and needs a password');
  const plugins = (await server.get('/v1/plugins')).body.plugins as Array<{ id: string; options: { properties: Record<string, unknown> } }>;
  const pdf = plugins.find((p) => p.id === 'document.pdf')!;
  expect(Object.keys(pdf.options.properties)).toEqual(['maxBytes', 'timeoutMs', 'maxPages', 'maxDecompressedBytes', 'pageMarkers']);
  expect(plugins.map((p) => p.id)).toEqual(expect.arrayContaining(['document.docx', 'document.xlsx', 'document.csv', 'source.video']));
});

describe('CLI', () => {
  const cli = runCli;

  test('scrapes every document type through the same pipeline', async () => {
    const [pdf, docx, xlsx, csv, encrypted] = await Promise.all([
      cli(site.at('/files/report.pdf')),
      cli(site.at('/blob/8812'), '--format', 'text'),
      cli(site.at('/files/budget.xlsx')),
      cli(site.at('/files/fares.csv'), '--json'),
      cli(site.at('/hostile/encrypted.pdf')),
    ]);
    expect(pdf.exitCode).toBe(0);
    expect(pdf.stdout).toContain('| Route | Sailings | Delay (min) |');
    expect(docx.stdout).toStartWith('Ferry Handbook\n\nGetting aboard');
    expect(xlsx.stdout).toStartWith('## Q1 Sales\n\n| Region | Amount | Date |');
    expect(JSON.parse(csv.stdout).metadata).toMatchObject({ row_count: 2, delimiter: ';' });
    expect(encrypted.exitCode).toBe(1);
    expect(encrypted.stderr.trim()).toBe('Could not read PDF: the file is encrypted and needs a password');
  }, 60_000);
});
