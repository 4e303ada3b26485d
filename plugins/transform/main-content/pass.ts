/**
 * One extraction pass: picks the content, adds its lead-in, like sections and FAQs, marks what to
 * clean inside it and cuts its closing tail. Passes only mark elements; nothing is removed until
 * the winning pass of the cascade (cascade.ts) is applied.
 */
import { contentSiblings, pickTop } from './candidates.ts';
import { closingTail } from './comments.ts';
import { continuedList } from './continued.ts';
import { faqBlocks } from './faq.ts';
import { leadIn } from './leadin.ts';
import { findPrunable } from './prune.ts';
import { likeSections } from './sections.ts';
import { withOpeningPost } from './thread.ts';
import { measure, type Stats, type StatsMap } from './scoring.ts';
import { HEADINGS } from './tags.ts';
import { tagOf } from './walk.ts';
import type { Pass } from './pass-settings.ts';

export interface PassResult {
  pass: Pass;
  parts: Element[];
  prune: Set<Element>;
  /** Visible characters of the result. */
  text: number;
  /** Visible characters of the chosen parts before in-content cleaning. */
  partsText: number;
  /** Visible characters of the comment thread or "read next" list cut from the end (see comments.ts). */
  tailText: number;
  stats: StatsMap;
  /** Which pass of the cascade this is (0 the strict one, higher ever looser). */
  rung?: number;
  /** The whole page's measure (before any pass left boilerplate out), set by `cascade`: what the content is weighed against. */
  page?: Stats;
}

/** `stats`: `root` measured without `pass.dropped` (passes never change a measure: the cascade shares them). */
export function runPass(root: Element, pass: Pass, title: string, stats: StatsMap = measure(root, pass.dropped)): PassResult {
  const best = pickTop(root, stats, pass, [title]);
  if (pass.thread) best.el = withOpeningPost(best.el, root, stats);
  const picked = continuedList(contentSiblings(best.el, root, stats, pass, best.avoid), best.el, root, stats, pass, best.spread);
  const siblings = likeSections(picked, root, stats, pass);
  let parts = [...leadIn(siblings, root, stats, pass), ...siblings];
  // (FAQs are looked for near the pick itself: an added section higher up would widen the search)
  const faqs =
    siblings === picked
      ? faqBlocks(parts, root, stats, pass)
      : faqBlocks(picked, root, stats, pass).filter((f) => !parts.some((p) => p.contains(f)));
  if (faqs.length) {
    parts.push(...faqs);
    // (stats are kept in document order; linkedom's compareDocumentPosition misorders nodes at different depths)
    const order = new Map<Element, number>();
    let i = 0;
    for (const el of stats.keys()) order.set(el, i++);
    parts.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  }
  const prune = findPrunable(parts, stats, pass, title, best.spread, best.whole);
  // (a cleaned-away block is no opener, but a heading taken for its class, id="comments", still says what follows)
  const gone = (el: Element) => pass.dropped.has(el) || (prune.has(el) && !HEADINGS.has(tagOf(el)));
  const tail = new Set(closingTail(parts, stats, gone, pass.forum, best.spread));
  let tailText = 0;
  for (const el of tail) tailText += stats.get(el)?.text ?? 0;
  if (tail.size) parts = parts.filter((p) => !tail.has(p));
  for (const el of tail) if (!parts.includes(el)) prune.add(el);
  let partsText = 0;
  for (const p of parts) partsText += stats.get(p)?.text ?? 0;
  return { pass, parts, prune, text: keptText(parts, prune, stats), partsText, tailText, stats };
}

function keptText(parts: Element[], prune: Set<Element>, stats: StatsMap): number {
  let text = 0;
  for (const p of parts) text += stats.get(p)?.text ?? 0;
  // (outermost pruned elements only: a cut tail may hold blocks the cleaning had already taken)
  for (const el of prune) if (!prunedAbove(el, prune)) text -= stats.get(el)?.text ?? 0;
  return text;
}

function prunedAbove(el: Element, prune: Set<Element>): boolean {
  for (let a = el.parentElement; a; a = a.parentElement) if (prune.has(a)) return true;
  return false;
}
