/**
 * The page's lead-in: what sits between its H1 and the chosen content. Scoring favours the body
 * of long paragraphs, so a landing page's hero (the heading and its one-line pitch), a Q&A page's
 * question above its answers or a thread's opening post kept apart from the replies' container are
 * left out of the pick; they start the content, so they are added in front of it.
 */
import type { Pass } from './pass-settings.ts';
import type { StatsMap } from './scoring.ts';
import { tagOf } from './walk.ts';

/** The lead-in may hold at most this share of the chosen content's text (more is a second block, not a lead-in). */
const LEAD_SHARE = 1;
/** How far above the content's parent the H1 and the content may meet. */
const LEAD_DEPTH = 6;
/** Text beyond its headings that a lead-in must have. */
const LEAD_MIN = 20;
/** A lead-in block this link-dense is navigation or a listing's grid, not an introduction. */
const LEAD_LINKS = 0.5;

/** Blocks between the page's first H1 and the content parts, in document order (empty when there is no such lead-in). */
export function leadIn(parts: Element[], root: Element, stats: StatsMap, pass: Pass): Element[] {
  const first = parts[0];
  if (pass.article || !first || first === root) return [];
  // (a thread searched inside its <main> may have its title above it: there the opening post starts it)
  const h1 = firstHeading(stats, first) ?? (pass.forum ? root.firstElementChild : null);
  if (!h1 || h1.contains(first)) return [];
  // the ancestors of the content up to where the heading's branch joins it
  const path: Element[] = [];
  let meet: Element | null = null;
  for (let a: Element | null = first; a && a !== root.parentNode; a = a.parentNode as Element | null) {
    if (a.contains(h1)) {
      meet = a;
      break;
    }
    path.push(a);
  }
  if (!meet || path.length > LEAD_DEPTH + 1) return [];
  const out: Element[] = [];
  // at the meeting point: the heading's branch and the branches after it, up to the content's
  const top = path[path.length - 1]!;
  let started = false;
  for (let c = meet.firstElementChild; c && c !== top; c = c.nextElementSibling) {
    if (!started && c.contains(h1)) started = true;
    if (started && stats.has(c)) out.push(c);
  }
  // below it: what comes before the content inside its own branch
  for (let i = path.length - 2; i >= 0; i--) {
    const at = path[i]!;
    for (let c = (at.parentNode as Element).firstElementChild; c && c !== at; c = c.nextElementSibling) if (stats.has(c)) out.push(c);
  }
  let text = 0;
  let heads = 0;
  // (a link-heavy block there is a listing's grid or a menu, not an introduction; boilerplate stays out)
  const kept = out.filter((el) => !pass.dropped.has(el) && !linkHeavy(stats, el));
  for (const el of kept) {
    const s = stats.get(el)!;
    text += s.text;
    heads += s.headingText;
    // a dated headline block (title, byline, date) is an article's header, metadata
    if (!pass.forum && el.querySelector('time')) return [];
  }
  // the heading alone is the title, which is metadata (see the title rule in prune.ts)
  if (text - heads < LEAD_MIN) return [];
  let partsText = 0;
  for (const p of parts) partsText += stats.get(p)?.text ?? 0;
  if (!text || text > partsText * LEAD_SHARE) return [];
  return kept;
}

function linkHeavy(stats: StatsMap, el: Element): boolean {
  const s = stats.get(el);
  return !!s && s.link > s.text * LEAD_LINKS;
}

/** The first H1 with text, when it comes before the content (stats are kept in document order). */
function firstHeading(stats: StatsMap, first: Element): Element | null {
  for (const [el, s] of stats) {
    if (el === first) return null;
    if (tagOf(el) === 'H1' && s.text > 0) return el;
  }
  return null;
}
