/**
 * The DOCX parser (runs in a content worker): the zip guard first, then mammoth for the
 * content (headings, lists, bold/italic, links, tables, footnotes) and the document properties
 * for metadata.
 */
import mammoth from 'mammoth';
import { DocumentRefusal, type DocumentParser } from '../shared/types.ts';
import { ZipArchive, type ZipLimits } from '../shared/zip.ts';
import { coreProperties } from '../shared/ooxml.ts';
import { formatBytes } from '../shared/limits.ts';
import { tidyDocxHtml } from './tidy.ts';

/** Word's built-in styles that are headings or quotes in all but name. */
const STYLE_MAP = [
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='Subtitle'] => h2:fresh",
  "p[style-name='Quote'] => blockquote > p:fresh",
  "p[style-name='Intense Quote'] => blockquote > p:fresh",
];

/** The document's default language, from the default run properties in styles.xml. */
function defaultLanguage(archive: ZipArchive): string | null {
  const styles = archive.entries.find((e) => e.name === 'word/styles.xml');
  if (!styles || styles.size > 4 * 1024 * 1024) return null;
  const xml = archive.readText(styles.name) ?? '';
  const start = xml.indexOf('<w:docDefaults>');
  const end = xml.indexOf('</w:docDefaults>', start);
  if (start < 0 || end < 0) return null;
  return /<w:lang\b[^>]*\bw:val="([^"]+)"/.exec(xml.slice(start, end))?.[1] ?? null;
}

export interface DocxParseOptions extends ZipLimits {
  maxDocumentXmlBytes: number;
}

export const parse: DocumentParser<DocxParseOptions> = async (bytes, options) => {
  const archive = ZipArchive.open(bytes, options);
  const body = archive.entries.find((e) => e.name === 'word/document.xml');
  if (!body) throw new DocumentRefusal('it is not a Word document (word/document.xml is missing)');
  // mammoth holds about a hundred times the body's XML in memory (5.3 MB took 550 MB and 4.8 s here).
  if (body.size > options.maxDocumentXmlBytes) {
    throw new DocumentRefusal(
      `its text (word/document.xml) is ${formatBytes(body.size)}, over the ${formatBytes(options.maxDocumentXmlBytes)} limit`,
    );
  }
  const converted = await mammoth.convertToHtml(
    { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
    {
      styleMap: STYLE_MAP,
      ignoreEmptyParagraphs: true,
      // Never follow links to files outside the document (a path or URL planted in the file).
      externalFileAccess: false,
      // Images are dropped (see tidy.ts); returning no source spares reading their bytes.
      convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
    },
  );
  const html = tidyDocxHtml(converted.value);
  const properties = coreProperties(archive);
  const firstHeading = /<h1>([\s\S]*?)<\/h1>/
    .exec(html)?.[1]
    ?.replace(/<[^>]+>/g, '')
    .trim();
  return {
    html,
    warnings: [],
    metadata: {
      ...properties,
      title: properties.title ?? firstHeading ?? null,
      language: properties.language ?? defaultLanguage(archive),
    },
  };
};
