/**
 * Sentences and words of plain text, for the answers and summaries that need no model: blocks
 * (blank-line separated, as the text format writes them) cut into sentences by the ICU sentence
 * segmenter Bun ships (`Intl.Segmenter`, in the page's language), and words as lower-case letter
 * and digit runs with a light English suffix folding, so "opened" and "opening" meet.
 */

export interface Sentence {
  text: string;
  /** Index of the block (paragraph, heading, list item) it is in. */
  block: number;
  /** The block is a heading-like line: short, no sentence ending. */
  heading: boolean;
}

const segmenters = new Map<string, Intl.Segmenter>();
function segmenter(language: string | null | undefined): Intl.Segmenter {
  const tag = (language ?? 'en').split(/[-_]/)[0]!.toLowerCase() || 'en';
  let found = segmenters.get(tag);
  if (!found) {
    try {
      found = new Intl.Segmenter(tag, { granularity: 'sentence' });
    } catch {
      found = new Intl.Segmenter('en', { granularity: 'sentence' });
    }
    if (segmenters.size < 64) segmenters.set(tag, found);
  }
  return found;
}

const ENDS_SENTENCE = /[.!?…。！？]["'”’)\]]*$/;

/** At most `maxSentences`, in text order; each sentence's white space collapsed. */
export function sentencesOf(text: string, language?: string | null, maxSentences = Infinity): Sentence[] {
  const out: Sentence[] = [];
  const blocks = text.split(/\n\s*\n|\n(?=[-*•] )/);
  for (let block = 0; block < blocks.length && out.length < maxSentences; block++) {
    const raw = blocks[block]!.replace(/\s+/g, ' ').trim();
    if (!raw) continue;
    const heading = raw.length <= 120 && !ENDS_SENTENCE.test(raw) && !raw.includes('. ');
    if (heading) {
      out.push({ text: raw, block, heading });
      continue;
    }
    for (const { segment } of segmenter(language).segment(raw)) {
      const sentence = segment.trim();
      if (sentence) out.push({ text: sentence, block, heading: false });
      if (out.length >= maxSentences) break;
    }
  }
  return out;
}

/** Words too common to say anything about a sentence (English; other languages rely on weighting). */
export const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have he her his how i if in into ' +
    'is it its me my no not of on or our she so such than that the their them then there these they this those to too was we were what when ' +
    'where which who whom why will with would you your'
  ).split(' '),
);

/** `running` → `run`-ish: plural, past and -ing endings folded (English), so word forms meet. */
export function foldWord(word: string): string {
  if (word.length <= 4) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ing') && word.length > 5) return word.slice(0, -3);
  if (word.endsWith('ed') && word.length > 5) return word.slice(0, -2);
  if (word.endsWith('es') && /(?:ss|sh|ch|x|z)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Content words of a text: lower case, stop words out, forms folded. */
export function termsOf(text: string): string[] {
  // Numbers keep their separators (1,400 · 3.5 · 9:30).
  const words = text.toLowerCase().match(/[\p{L}\p{N}](?:[\p{L}\p{N}'’-]|[.,:](?=\p{N}))*/gu) ?? [];
  return words.filter((w) => !STOP_WORDS.has(w)).map((w) => foldWord(w.replace(/['’]s?$/, '')));
}
