/**
 * Binary bodies served as HTML (an image, archive or font behind a `text/html` header, or plain
 * garbage). Parsed as HTML they would yield pages of mojibake with thousands of "words"; the
 * html plugin refuses them with a clear 422 instead. Judged on the start of the body: the magic
 * number first (the document plugins' shared sniff, which has already run for PDF, DOCX …), then
 * the share of control and replacement characters in the decoded text, which text in any
 * charset keeps near zero.
 */
import { responseText } from '../../../core/kit.ts';
import type { FetchedResponse, PageDocument } from '../../../core/kit.ts';
import { sniffedType } from '../shared/detect.ts';

const SAMPLE_CHARS = 4096;
/** Text pages with a stray control character or a few mis-decoded bytes stay far below this. */
const MAX_NON_TEXT_SHARE = 0.1;
/** Sniffed types that are text: XHTML opens like any XML file; calendars, cards and subtitles are harmless text. */
const TEXTUAL = new Set(['xml', 'ics', 'vcf', 'vtt']);

/** C0 controls other than tab, line feed, form feed and carriage return; DEL; U+FFFD from undecodable bytes. */
const NON_TEXT = /[\u0000-\u0008\u000B\u000E-\u001F\u007F\uFFFD]/g;

export function nonTextShare(text: string): number {
  const sample = text.slice(0, SAMPLE_CHARS);
  return sample.length ? (sample.match(NON_TEXT)?.length ?? 0) / sample.length : 0;
}

export function isNonText(response: FetchedResponse): boolean {
  return nonTextShare(responseText(response)) > MAX_NON_TEXT_SHARE;
}

/** Why the body is not text: its sniffed type (`png`), `''` when it is binary of no known type, null when it is text. */
export async function binaryBody(doc: PageDocument): Promise<string | null> {
  if (!doc.response) return null;
  const sniffed = await sniffedType(doc);
  if (sniffed && !TEXTUAL.has(sniffed)) return sniffed;
  return isNonText(doc.response) ? '' : null;
}
