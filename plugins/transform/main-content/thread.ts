/**
 * Threads whose opening post sits apart from the replies (link aggregators and some forums show the
 * story or question in a card of its own, the comment tree in a block below it): a pick that holds
 * the replies but not the thread's title heading is widened to the near ancestor holding both.
 */
import type { StatsMap } from './scoring.ts';

/** Levels above the pick the title may be found at (higher up, it is the page's header, not the post's). */
const MAX_UP = 4;
/** Link density above which the widened block is navigation more than a thread. */
const MAX_LINKS = 0.5;

export function withOpeningPost(best: Element, root: Element, stats: StatsMap): Element {
  if (best === root) return best;
  const h1 = root.getElementsByTagName('h1')[0];
  if (!h1 || best.contains(h1)) return best;
  let up = 0;
  for (let a = best.parentElement; a && a !== root && up < MAX_UP; a = a.parentElement, up++) {
    if (!a.contains(h1)) continue;
    const s = stats.get(a);
    return s && s.link <= s.text * MAX_LINKS ? a : best;
  }
  return best;
}
