/**
 * What a CSV file does not say about itself: its encoding (byte-order mark, UTF-16 without one,
 * the declared charset, else UTF-8, else windows-1252) and its delimiter (the candidate that
 * splits the first records into the same number of fields most consistently, quotes respected).
 */
import { charsetFromContentType, decodeText } from '../../../core/net/charset.ts';

const SAMPLE_BYTES = 4096;
const SAMPLE_CHARS = 64 * 1024;
const SAMPLE_RECORDS = 50;
export const DELIMITERS = [',', ';', '\t', '|'] as const;

/** UTF-16 text without a BOM shows as a zero byte in every other position of ASCII-heavy text. */
function utf16WithoutBom(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(bytes.byteLength, SAMPLE_BYTES) & ~1;
  if (n < 4) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  if (oddZeros > pairs * 0.3 && evenZeros < pairs * 0.05) return 'utf-16le';
  if (evenZeros > pairs * 0.3 && oddZeros < pairs * 0.05) return 'utf-16be';
  return null;
}

export function decodeCsv(bytes: Uint8Array, contentType: string | undefined): { text: string; charset: string } {
  const hasBom = bytes[0] === 0xff || bytes[0] === 0xfe || (bytes[0] === 0xef && bytes[1] === 0xbb);
  const utf16 = hasBom ? null : utf16WithoutBom(bytes);
  if (utf16) return { text: new TextDecoder(utf16).decode(bytes), charset: utf16 };
  if (!hasBom && !charsetFromContentType(contentType)) {
    // Unlike a web page, one stray byte decides: a spreadsheet export that is not valid UTF-8 is
    // almost always windows-1252, and "M\uFFFDller" in a table is worse than a rare misread.
    try {
      return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), charset: 'utf-8' };
    } catch {
      return { text: new TextDecoder('windows-1252').decode(bytes), charset: 'windows-1252' };
    }
  }
  const decoded = decodeText(bytes, { contentType, sniffMarkup: false });
  return { text: decoded.text, charset: decoded.charset };
}

/** Field counts of the first records for one delimiter, honouring quoted fields (which may span lines). */
function fieldCounts(sample: string, delimiter: string): number[] {
  const counts: number[] = [];
  let fields = 1;
  let quoted = false;
  let empty = true;
  for (let i = 0; i < sample.length && counts.length < SAMPLE_RECORDS; i++) {
    const c = sample[i]!;
    if (c === '"') {
      quoted = !quoted;
      empty = false;
    } else if (!quoted && c === delimiter) {
      fields++;
      empty = false;
    } else if (!quoted && (c === '\n' || c === '\r')) {
      if (c === '\r' && sample[i + 1] === '\n') i++;
      if (!empty) counts.push(fields);
      fields = 1;
      empty = true;
    } else if (c !== ' ') empty = false;
  }
  // The last record of a cut sample may be partial; only a whole file's last line counts.
  if (!empty && sample.length < SAMPLE_CHARS) counts.push(fields);
  return counts;
}

/** The delimiter whose field count is most consistent (and, at a tie, largest); `preferred` wins ties (TSV files). */
export function sniffDelimiter(text: string, preferred?: string): string {
  const sample = text.slice(0, SAMPLE_CHARS);
  let best = { delimiter: preferred ?? ',', consistency: 0, fields: 1 };
  const candidates = preferred ? [preferred, ...DELIMITERS.filter((d) => d !== preferred)] : DELIMITERS;
  for (const delimiter of candidates) {
    const counts = fieldCounts(sample, delimiter);
    if (counts.length === 0) continue;
    const frequency = new Map<number, number>();
    for (const n of counts) frequency.set(n, (frequency.get(n) ?? 0) + 1);
    const [fields, times] = [...frequency.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]!;
    if (fields < 2) continue;
    const consistency = times / counts.length;
    if (consistency > best.consistency + 1e-9 || (Math.abs(consistency - best.consistency) < 1e-9 && fields > best.fields)) {
      best = { delimiter, consistency, fields };
    }
  }
  return best.delimiter;
}
