/**
 * Repairs doubly encoded UTF-8 in the extracted content: text whose UTF-8 bytes were once read as
 * Latin-1 and encoded again ("Earthâ\u0080\u0099s" for "Earth’s"), as a CMS or a scraper that got
 * the charset wrong leaves it. The tell is a C1 control character (U+0080–U+009F) right after a
 * UTF-8 lead byte read as a letter: C1 controls never occur in real text, so a page showing them is
 * repaired, and then every run that decodes as valid UTF-8 is replaced by what it decodes to.
 */
import { SHOW_TEXT, walkNodes } from '../../../core/kit.ts';

/** A UTF-8 lead byte read as Latin-1, then as many continuation bytes as it announces. */
const RUN = /[\u00c2-\u00df][\u0080-\u00bf]|[\u00e0-\u00ef][\u0080-\u00bf]{2}|[\u00f0-\u00f4][\u0080-\u00bf]{3}/g;
/** The same with a C1 control among the continuation bytes: the sign of double encoding. */
const SIGN = /[\u00c2-\u00f4][\u00a0-\u00bf]?[\u0080-\u009f]/;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Can text parsed from `markup` hold a C1 control at all? Only a raw one can put it there, or a
 * numeric reference to one of the five the parser does not map to windows-1252 (`&#129;` …):
 * most pages have neither, and their text need not be walked.
 */
export function mayHoldMojibake(markup: string): boolean {
  // two plain scans: one regex with both alternatives is several times slower on a large page
  return C1.test(markup) || (markup.includes('&#') && C1_REFERENCE.test(markup));
}

const C1 = /[\u0080-\u009f]/;
const C1_REFERENCE = /&#(?:[xX]0*(?:8[1dDfF]|9[0dD])(?![\da-fA-F])|0*(?:129|141|143|144|157)(?!\d))/;

/** One run as the character it stood for, or unchanged when its bytes are not valid UTF-8. */
function decodeRun(run: string): string {
  const bytes = new Uint8Array(run.length);
  for (let i = 0; i < run.length; i++) bytes[i] = run.charCodeAt(i);
  try {
    return utf8.decode(bytes);
  } catch {
    return run;
  }
}

/** Repairs the text nodes under `root` in place when its text shows double encoding. */
export function repairMojibake(root: Element): void {
  const nodes: Node[] = [];
  let seen = false;
  walkNodes(root, SHOW_TEXT, (n) => {
    const v = n.nodeValue ?? '';
    if (!/[\u00c2-\u00f4]/.test(v)) return;
    nodes.push(n);
    if (!seen && SIGN.test(v)) seen = true;
  });
  if (!seen) return;
  for (const n of nodes) {
    const v = n.nodeValue ?? '';
    const fixed = v.replace(RUN, decodeRun);
    if (fixed !== v) n.nodeValue = fixed;
  }
}
