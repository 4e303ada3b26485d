/**
 * The encoding of a text file (CSV, plain text), which says nothing about itself the way a web
 * page's <meta charset> does: a byte-order mark, UTF-16 without one (a zero byte in every other
 * position of ASCII-heavy text), the declared charset, else UTF-8, else windows-1252.
 */
import { charsetFromContentType, decodeText } from '../../../core/kit.ts';

const SAMPLE_BYTES = 4096;

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

export function decodeTextFile(bytes: Uint8Array, contentType: string | undefined): { text: string; charset: string } {
  const hasBom = bytes[0] === 0xff || bytes[0] === 0xfe || (bytes[0] === 0xef && bytes[1] === 0xbb);
  const utf16 = hasBom ? null : utf16WithoutBom(bytes);
  if (utf16) return { text: new TextDecoder(utf16).decode(bytes), charset: utf16 };
  if (!hasBom && !charsetFromContentType(contentType)) {
    // Unlike a web page, one stray byte decides: an exported file that is not valid UTF-8 is
    // almost always windows-1252, and "M\uFFFDller" is worse than a rare misread.
    try {
      return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), charset: 'utf-8' };
    } catch {
      return { text: new TextDecoder('windows-1252').decode(bytes), charset: 'windows-1252' };
    }
  }
  const decoded = decodeText(bytes, { contentType, sniffMarkup: false });
  return { text: decoded.text, charset: decoded.charset };
}
