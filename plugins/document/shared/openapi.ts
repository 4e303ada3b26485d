/**
 * The OpenAPI contributions of the document plugins (their `api` metadata): the metadata fields
 * each type adds, and the decisions the interface leaves open (how a type is recognised, what each
 * becomes, the limits, and the 422 wording when a file is refused), shared by the four of them.
 */
import type { PluginApi } from '../../../core/kit.ts';

const count = (description: string) => ({ type: 'integer', description });
const str = (description: string) => ({ type: ['string', 'null'], description });
const keywords = str('PDF/DOCX/XLSX: keywords from the document properties.');
const charset = str(
  'CSV and text files: the encoding the file was read with (BOM, UTF-16 pattern, declared charset, UTF-8, else windows-1252).',
);

const documentsDescription =
  '\n\nDocuments need no extra parameters. PDF, DOCX, XLSX and CSV/TSV are recognised by their bytes first (a PDF served as `text/html` or a ' +
  'DOCX served as `application/octet-stream` without an extension is still recognised), then by a specific Content-Type, then by the file ' +
  'extension of the URL or the Content-Disposition name when the type says nothing; every format works on them. PDF: headings (by font size), ' +
  'paragraphs, lists and tables in reading order (two-column pages column by column, running headers and page numbers dropped); ' +
  '`metadata.title`, `author`, `published_date` (created), `page_count`. DOCX: headings, lists, emphasis, links, tables (first row as header), ' +
  'footnotes under a "Footnotes" heading; metadata from the document properties. XLSX: one `## <sheet name>` section and table per visible ' +
  "sheet, cached formula results, dates as ISO 8601, a merged range's value in its top-left cell, empty rows and empty edge columns dropped. " +
  'CSV: one table with the first record as header row. Plain text and markdown (`text/plain`, `text/markdown`, `.txt`, `.md`): markdown (also plain text ' +
  'that reads as markdown, such as llms.txt) as written; other text with paragraphs and their line breaks, indented or column-aligned blocks preformatted (a CSV or PDF served as `text/plain` is still read by its extension or bytes). Limits (per type, in `plugins.document.<type>`): file size, PDF pages and expanded ' +
  'stream size, DOCX body size, XLSX sheets, rows, columns and cells, CSV rows, columns and cells, text lines, zip entries, expanded size and compression ratio, and a ' +
  'parse time limit (parsers run in the content workers, so a hung or crashing parser costs only its worker); a cap that cuts content ' +
  'short leaves a note in the content and a `warnings` entry. Refused files are 422 with `Could not read <TYPE>: <reason>`, e.g. ' +
  '`Could not read PDF: the file is encrypted and needs a password`, `… the file is corrupt (invalid PDF structure)`, `… the file is truncated ' +
  '(its end-of-file marker is missing)`, `Could not read DOCX: the archive expands to more than 100 MB (refused as a likely zip bomb)`.';

export const pdfApi: PluginApi = {
  metadataProperties: { pageCount: count('PDF: pages in the file (also when `maxPages` cut the text short).'), keywords },
  description: documentsDescription,
};

export const docxApi: PluginApi = { metadataProperties: { keywords }, description: documentsDescription };

export const xlsxApi: PluginApi = {
  metadataProperties: { sheetCount: count('XLSX: sheets in the workbook, hidden ones included.'), keywords },
  description: documentsDescription,
};

export const csvApi: PluginApi = {
  metadataProperties: {
    rowCount: count('CSV: data rows in the file (header row not counted), also those over the row cap.'),
    columnCount: count('CSV: fields of the widest record.'),
    delimiter: str('CSV: the sniffed delimiter: `,` `;` `|` or `tab`.'),
    charset,
  },
  description: documentsDescription,
};

export const textApi: PluginApi = {
  metadataProperties: {
    lineCount: count('Text files: lines in the file (also those over the line cap).'),
    charset,
    markup: str(
      'Text files: `markdown` when the file was read as markdown (a .md file, `text/markdown`, or text whose first lines show headings, fences, links or lists), else `plain`.',
    ),
  },
  description: documentsDescription,
};
