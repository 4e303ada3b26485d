/**
 * TextRank over a page's sentences, for summaries without a model: sentences are nodes, edges are
 * weighted by the content words two sentences share (normalised by their lengths, as in Mihalcea
 * and Tarau's paper), and PageRank on that graph ranks them. Deterministic: fixed iterations and
 * ties to the earlier sentence. Bounded: a word in more than half the sentences says nothing and
 * adds no edges, so the graph stays sparse.
 */
import { termsOf } from '../../sentences.ts';

const DAMPING = 0.85;
const MAX_ITERATIONS = 100;
const TOLERANCE = 1e-7;

/** Each sentence's score (they sum to 1). */
export function textRank(sentences: readonly string[]): number[] {
  const n = sentences.length;
  if (n === 0) return [];
  const terms = sentences.map((s) => [...new Set(termsOf(s))]);
  const postings = new Map<string, number[]>();
  for (const [i, words] of terms.entries()) for (const w of words) (postings.get(w) ?? postings.set(w, []).get(w)!).push(i);

  // Shared words per pair, from the postings of the discriminating words only.
  const shared = new Map<number, number>();
  const limit = Math.max(2, n / 2);
  for (const list of postings.values()) {
    if (list.length < 2 || list.length > limit) continue;
    for (let a = 0; a < list.length; a++)
      for (let b = a + 1; b < list.length; b++) {
        const key = list[a]! * n + list[b]!;
        shared.set(key, (shared.get(key) ?? 0) + 1);
      }
  }
  const edges: Array<Array<[number, number]>> = Array.from({ length: n }, () => []);
  const strength = new Float64Array(n);
  for (const [key, common] of shared) {
    const i = Math.floor(key / n);
    const j = key % n;
    const norm = Math.log(terms[i]!.length + 1) + Math.log(terms[j]!.length + 1);
    const weight = common / norm;
    edges[i]!.push([j, weight]);
    edges[j]!.push([i, weight]);
    strength[i]! += weight;
    strength[j]! += weight;
  }

  let scores = new Float64Array(n).fill(1 / n);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    const next = new Float64Array(n).fill((1 - DAMPING) / n);
    let dangling = 0;
    for (let i = 0; i < n; i++) if (strength[i] === 0) dangling += scores[i]!;
    for (let i = 0; i < n; i++) {
      // A sentence sharing no words spreads its weight evenly, so the scores keep summing to 1.
      next[i]! += (DAMPING * dangling) / n;
      for (const [j, weight] of edges[i]!) next[i]! += (DAMPING * weight * scores[j]!) / strength[j]!;
    }
    let change = 0;
    for (let i = 0; i < n; i++) change += Math.abs(next[i]! - scores[i]!);
    scores = next;
    if (change < TOLERANCE) break;
  }
  return [...scores];
}

/** Indexes of the `count` best sentences, in text order. */
export function topSentences(sentences: readonly string[], count: number): number[] {
  const scores = textRank(sentences);
  return scores
    .map((score, index) => ({ score, index }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, count)
    .map((s) => s.index)
    .sort((a, b) => a - b);
}
