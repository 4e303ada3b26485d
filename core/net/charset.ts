/**
 * Turns response body bytes into text with the right character set, in the order browsers use: a
 * byte-order mark, then the Content-Type charset, then a `<meta>` / XML declaration in the first
 * bytes of the document, then UTF-8 (or windows-1252 when the bytes are clearly not UTF-8).
 * Decoding never throws: an unknown or broken label falls through to the next source.
 */
import { isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';

export type CharsetSource = 'bom' | 'header' | 'meta' | 'default' | 'fallback';

export interface DecodedText {
  text: string;
  /** Canonical name of the encoding actually used (`utf-8`, `windows-1251`, `shift_jis`, …). */
  charset: string;
  source: CharsetSource;
}

export interface DecodeOptions {
  /** The raw Content-Type header value, parameters included. */
  contentType?: string | null;
  /** Look for `<meta charset>` / `<?xml encoding?>`; only meaningful for markup. Default true. */
  sniffMarkup?: boolean;
}

/** How far into the document a charset declaration is looked for (browsers use 1024 bytes). */
const SNIFF_BYTES = 2048;

/** The charset settled without decoding: the text is the bytes read as UTF-8 (a leading BOM dropped). */
export interface Utf8Verdict {
  charset: 'utf-8';
  source: CharsetSource;
}

interface Decoder {
  name: string;
  decode(bytes: Uint8Array): string;
}

/**
 * Resolves a label to a decoder. TextDecoder comes first because it applies the WHATWG label
 * table (so `iso-8859-1` means windows-1252 and `gb2312` means GBK, as on the web); iconv-lite
 * covers the labels the platform does not know (`cp1251`, `sjis`, …).
 */
function decoderFor(label: string): Decoder | null {
  const clean = label
    .trim()
    .replace(/^["']|["']$/g, '')
    .toLowerCase();
  if (clean === '') return null;
  try {
    const td = new TextDecoder(clean);
    return { name: td.encoding, decode: (bytes) => td.decode(bytes) };
  } catch {}
  try {
    if (iconv.encodingExists(clean)) {
      return { name: clean, decode: (bytes) => iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), clean) };
    }
  } catch {}
  return null;
}

/** `charset` parameter of a Content-Type value, unquoted, or undefined. */
export function charsetFromContentType(contentType: string | null | undefined): string | undefined {
  if (!contentType) return undefined;
  const match = /;\s*charset\s*=\s*("([^"]*)"|[^;\s]*)/i.exec(contentType);
  const value = match?.[2] ?? match?.[1];
  return value ? value.trim() : undefined;
}

/** Encoding implied by a byte-order mark, with the BOM length. */
function bomEncoding(bytes: Uint8Array): { label: string; length: number } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { label: 'utf-8', length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { label: 'utf-16le', length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { label: 'utf-16be', length: 2 };
  return null;
}

/**
 * Charset declared inside the document: `<meta charset>`, `<meta http-equiv="Content-Type"
 * content="…; charset=…">` or an XML declaration. The prefix is read as latin1 so any
 * ASCII-compatible encoding reads the same; comments are skipped so a commented-out tag does not count.
 */
export function sniffMarkupCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, SNIFF_BYTES))
    .toString('latin1')
    .replace(/<!--[\s\S]*?(-->|$)/g, '');
  const xml = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/i.exec(head);
  if (xml?.[1]) return xml[1];
  for (const tag of head.matchAll(/<meta\b[^>]*>/gi)) {
    const direct = /\bcharset\s*=\s*["']?\s*([^"'\s;/>]+)/i.exec(tag[0]);
    if (direct?.[1]) return direct[1];
  }
  return undefined;
}

const REPLACEMENT = /\uFFFD/g;

/**
 * Bytes that declare nothing and are not valid UTF-8: still UTF-8 when only a few bytes are bad,
 * else windows-1252 (the web's default).
 */
function decodeInvalidUtf8(bytes: Uint8Array): DecodedText {
  const text = new TextDecoder('utf-8').decode(bytes);
  const bad = text.match(REPLACEMENT)?.length ?? 0;
  // A stray bad byte in a big UTF-8 page is not worth re-reading everything as windows-1252.
  if (bad < 8 && bad / Math.max(text.length, 1) < 0.005) return { text, charset: 'utf-8', source: 'default' };
  return { text: new TextDecoder('windows-1252').decode(bytes), charset: 'windows-1252', source: 'fallback' };
}

/**
 * Settles the charset in the file comment's order, decoding only when it is not UTF-8. For UTF-8,
 * the web's usual case, the verdict needs the BOM, the header, the first bytes and a validation
 * pass (much cheaper than building the text), so a caller can leave decoding to whoever reads the
 * text: a page read only in a content worker is then decoded once, there.
 */
export function settleCharset(bytes: Uint8Array, options: DecodeOptions = {}): DecodedText | Utf8Verdict {
  const bom = bomEncoding(bytes);
  if (bom) {
    const decoded = settleWith(bom.label, bytes.subarray(bom.length), 'bom');
    if (decoded) return decoded;
  }
  const fromHeader = settleWith(charsetFromContentType(options.contentType), bytes, 'header');
  if (fromHeader) return fromHeader;
  if (options.sniffMarkup !== false) {
    let declared = sniffMarkupCharset(bytes);
    // A document that could be read as ASCII cannot really be UTF-16; HTML says to use UTF-8 then.
    if (declared && /^utf-?16/i.test(declared.trim())) declared = 'utf-8';
    const fromMeta = settleWith(declared, bytes, 'meta');
    if (fromMeta) return fromMeta;
  }
  if (isUtf8(bytes)) return { charset: 'utf-8', source: 'default' };
  return decodeInvalidUtf8(bytes);
}

/** A declared label: the UTF-8 verdict, the bytes decoded with it, or null when it is unknown or fails. */
function settleWith(label: string | undefined, bytes: Uint8Array, source: CharsetSource): DecodedText | Utf8Verdict | null {
  const decoder = label ? decoderFor(label) : null;
  if (!decoder) return null;
  if (decoder.name === 'utf-8') return { charset: 'utf-8', source };
  try {
    return { text: decoder.decode(bytes), charset: decoder.name, source };
  } catch {
    return null;
  }
}

/** The text of bytes that `settleCharset` judged UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

/** Decodes body bytes into text; see the file comment for the precedence. */
export function decodeText(bytes: Uint8Array, options: DecodeOptions = {}): DecodedText {
  const settled = settleCharset(bytes, options);
  return 'text' in settled ? settled : { text: decodeUtf8(bytes), ...settled };
}
