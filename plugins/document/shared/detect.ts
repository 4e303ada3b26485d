/**
 * Recognising a document type from a response: magic bytes (file-type) first, because headers
 * lie (a PDF served as text/html, a DOCX as application/octet-stream); then a specific
 * Content-Type; then, when the type says nothing (octet-stream, text/plain, none), the file
 * extension of the URL or of the Content-Disposition file name.
 */
import { fileTypeFromBuffer } from 'file-type';
import { dataKey } from '../../../core/kit.ts';
import type { PageDocument } from '../../../core/kit.ts';

export interface DocumentKind {
  /** Media types that name this kind. */
  mediaTypes: readonly string[];
  /** File extensions (lower case, no dot). */
  extensions: readonly string[];
  /** file-type `ext` values that are this kind. */
  magic: readonly string[];
  /**
   * file-type results that do not contradict this kind: a DOCX whose `[Content_Types].xml` is
   * missing or unreadable sniffs as plain `zip`, and should still get a DOCX error, not "unsupported".
   */
  containers?: readonly string[];
}

/** Types that say "some bytes" rather than what the bytes are. */
const UNINFORMATIVE_TYPES = new Set([
  '',
  'application/octet-stream',
  'binary/octet-stream',
  'application/binary',
  'application/unknown',
  'application/download',
  'application/x-download',
  'application/force-download',
  'text/plain',
  // Servers send CSV under the Excel type because Excel opens it.
  'application/vnd.ms-excel',
]);

const SNIFF_KEY = dataKey<Promise<string | undefined>>('document.sniffed-type');

/** The file-type `ext` of the body, sniffed once per document and shared by every document plugin. */
export function sniffedType(doc: PageDocument): Promise<string | undefined> {
  let sniffed = doc.data.get(SNIFF_KEY);
  if (!sniffed) {
    const body = doc.response?.body ?? new Uint8Array(0);
    // A sniffing failure means "unknown", never a failed scrape.
    sniffed = fileTypeFromBuffer(body).then(
      (r) => r?.ext,
      () => undefined,
    );
    doc.data.set(SNIFF_KEY, sniffed);
  }
  return sniffed;
}

/** The file name the server or URL gives the response: Content-Disposition first, else the last path segment. */
export function responseFileName(doc: PageDocument): string | null {
  const disposition = doc.response?.headers['content-disposition'] ?? '';
  const star = /filename\*\s*=\s*[^']*'[^']*'([^;]+)/i.exec(disposition)?.[1];
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(disposition);
  let name = star ?? plain?.[2] ?? plain?.[1]?.trim();
  if (!name) {
    try {
      name = new URL(doc.response?.finalUrl || doc.job.url).pathname.split('/').pop() ?? '';
    } catch {
      name = '';
    }
  }
  try {
    name = decodeURIComponent(name);
  } catch {}
  return name.trim() || null;
}

function extensionOf(name: string | null): string | null {
  const match = /\.([a-z0-9]{1,8})$/i.exec(name ?? '');
  return match ? match[1]!.toLowerCase() : null;
}

export async function recognises(doc: PageDocument, kind: DocumentKind): Promise<boolean> {
  const response = doc.response;
  if (!response) return false;
  const sniffed = await sniffedType(doc);
  if (sniffed && kind.magic.includes(sniffed)) return true;
  if (sniffed && !kind.containers?.includes(sniffed)) return false;
  const type = response.mediaType.trim().toLowerCase();
  if (kind.mediaTypes.includes(type)) return true;
  if (!UNINFORMATIVE_TYPES.has(type)) return false;
  const extension = extensionOf(responseFileName(doc));
  return extension !== null && kind.extensions.includes(extension);
}
