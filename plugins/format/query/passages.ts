/**
 * The answer without a model: the page's text cut into passages (a few sentences of one block,
 * under the heading they follow) and ranked against the question by BM25 (MiniSearch's BM25+),
 * on content words with English forms folded (core/sentences.ts). Deterministic: ties go to the
 * earlier passage.
 */
import MiniSearch from 'minisearch';
import { sentencesOf, termsOf } from '../../../core/sentences.ts';

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
  if (!passages.length || !termsOf(question).length) return [];
  const index = new MiniSearch<Indexed>({
    fields: ['text', 'heading'],
    tokenize: termsOf,
    processTerm: (term) => term,
    searchOptions: { boost: { heading: 0.5 }, combineWith: 'OR', prefix: false, fuzzy: false },
  });
  index.addAll(passages);
  return index.search(question)
    .sort((a, b) => b.score - a.score || (a.id as number) - (b.id as number))
    .slice(0, limit)
    .map((hit) => ({ text: passages[hit.id as number]!.text, score: Math.round(hit.score * 1000) / 1000 }));
}
