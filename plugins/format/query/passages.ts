/**
 * The answer without a model: the page's text cut into passages (a few sentences of one block,
 * under the heading they follow) and ranked against the question by BM25 (MiniSearch's BM25+),
 * on content words with English forms folded (core/sentences.ts), plus a few low-weight cue words
 * for the kind of question (where → address, street…). Deterministic: ties go to the earlier passage.
 */
import MiniSearch from 'minisearch';
import { sentencesOf, termsOf } from '../../../core/kit.ts';

export interface Passage {
  text: string;
  /** BM25 score, higher is better; comparable within one page and question only. */
  score: number;
}

interface Indexed {
  id: number;
  text: string;
  heading: string;
}

/**
 * Words a passage answering a kind of question tends to hold, added to the query at a low weight:
 * "where is the museum" has one content word, and the address is what should win.
 */
const CUES: Array<[RegExp, string]> = [
  [/^\s*where\b/i, 'address located street road avenue square near next station'],
  [/^\s*when\b|\bwhat (?:time|year|date|day)\b/i, 'date year time day opened founded started until'],
  [/\bhow (?:much|expensive)\b|\b(?:cost|price)s?\b/i, 'cost price fee pay free'],
  [/\bhow (?:long|tall|high|big|wide|far|heavy)\b/i, 'metre meter kilometre mile long length height tall hour minute'],
  [/\bhow many\b/i, 'number total'],
];
const CUE_WEIGHT = 0.3;

/** A passage grows to about this many characters (at least one sentence). */
const PASSAGE_CHARS = 400;
/** Text past this is not searched (a page of a few MB of text; the answer is near the top or nowhere). */
const MAX_SENTENCES = 20_000;

export function passagesOf(text: string, language?: string | null): Indexed[] {
  const out: Indexed[] = [];
  let heading = '';
  let current: { block: number; parts: string[] } | null = null;
  const flush = () => {
    if (current) out.push({ id: out.length, text: current.parts.join(' '), heading });
    current = null;
  };
  for (const sentence of sentencesOf(text, language, MAX_SENTENCES)) {
    if (sentence.heading) {
      flush();
      heading = sentence.text;
      continue;
    }
    if (current && (current.block !== sentence.block || current.parts.join(' ').length + sentence.text.length > PASSAGE_CHARS)) flush();
    current ??= { block: sentence.block, parts: [] };
    current.parts.push(sentence.text);
  }
  flush();
  return out;
}

/** The `limit` best passages for `question`, best first; none when no content word of it occurs. */
export function bestPassages(text: string, question: string, language: string | null | undefined, limit: number): Passage[] {
  const passages = passagesOf(text, language);
  const asked = new Set(termsOf(question));
  if (!passages.length || !asked.size) return [];
  const cues = CUES.filter(([pattern]) => pattern.test(question))
    .map(([, words]) => words)
    .join(' ');
  const index = new MiniSearch<Indexed>({
    fields: ['text', 'heading'],
    tokenize: termsOf,
    processTerm: (term) => term,
    searchOptions: { boost: { heading: 0.5 }, combineWith: 'OR', prefix: false, fuzzy: false },
  });
  index.addAll(passages);
  return index
    .search(`${question} ${cues}`, { boostTerm: (term) => (asked.has(term) ? 1 : CUE_WEIGHT) })
    .sort((a, b) => b.score - a.score || (a.id as number) - (b.id as number))
    .slice(0, limit)
    .map((hit) => ({ text: passages[hit.id as number]!.text, score: Math.round(hit.score * 1000) / 1000 }));
}
