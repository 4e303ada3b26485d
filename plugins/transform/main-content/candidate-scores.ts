/**
 * Candidate scores as Readability reckons them: an element's paragraph points plus its tag and
 * class weights, times one less its link density; and the best-scoring few of a page.
 */
import { classWeight } from './boilerplate.ts';
import type { Pass } from './pass-settings.ts';
import { linkDensity, type StatsMap } from './scoring.ts';
import { tagOf } from './walk.ts';

const TAG_INIT: Record<string, number> = {
  DIV: 5,
  ARTICLE: 5,
  MAIN: 5,
  SECTION: 3,
  PRE: 3,
  TD: 3,
  BLOCKQUOTE: 3,
  ADDRESS: -3,
  OL: -3,
  UL: -3,
  DL: -3,
  DD: -3,
  DT: -3,
  LI: -3,
  FORM: -3,
  H1: -5,
  H2: -5,
  H3: -5,
  H4: -5,
  H5: -5,
  H6: -5,
  TH: -5,
};

export interface Scored {
  el: Element;
  score: number;
}

export function finalScore(el: Element, stats: StatsMap, pass: Pass): number {
  const s = stats.get(el);
  if (!s || s.score <= 0) return 0;
  return (s.score + (TAG_INIT[tagOf(el)] ?? 0) + (pass.weights ? classWeight(el, pass.forum) : 0)) * (1 - linkDensity(s));
}

export function topCandidates(root: Element, stats: StatsMap, pass: Pass, n = 5): Scored[] {
  const top: Scored[] = [];
  for (const [el, s] of stats) {
    if (s.score <= 0 || (el === root && tagOf(el) === 'HTML')) continue;
    const score = finalScore(el, stats, pass);
    if (top.length < n || score > top[top.length - 1]!.score) {
      top.push({ el, score });
      top.sort((a, b) => b.score - a.score);
      if (top.length > n) top.pop();
    }
  }
  return top;
}
