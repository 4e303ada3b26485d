/**
 * The cascade of extraction passes: strict first (boilerplate stripped, class weights, conditional
 * cleaning), then ever looser, as Readability retries when its result is too short; searched
 * inside the page's `<main>` landmark when it holds a fair share of the text.
 */
import { findBoilerplate } from './boiler-blocks.ts';
import type { PageKind } from './boilerplate.ts';
import { notices } from './notices.ts';
import { type PassResult, runPass } from './pass.ts';
import type { Pass } from './pass-settings.ts';
import { measure, type Stats, type StatsMap } from './scoring.ts';
import { attr, tagOf } from './walk.ts';

/** Enough text to stop retrying (Readability's 500 characters, counted without whitespace). */
export const ENOUGH_TEXT = 420;
/**
 * The same on a thread: its posts are found by their markup, so a short result there is most often a
 * short thread (a question and one reply), and the looser passes would add only the signatures,
 * profile cards and widgets the strict one left out.
 */
const ENOUGH_THREAD_TEXT = 200;

/**
 * Strict to loose; stops at the first pass with enough text, else keeps the longest. When the page
 * has a `<main>` landmark holding a fair share of its text, the search stays inside it. `stats0`
 * measure `root` as it is (the caller may have measured it already).
 */
export function cascade(
  root: Element,
  page: PageKind,
  title: string,
  markers: readonly Element[],
  stats0: StatsMap = measure(root),
): PassResult {
  const scope = mainLandmark(root, stats0, markers);
  // stats are subtree-local, so the page-wide measurement serves the landmark too
  const result = cascadeIn(scope, page, title, markers, stats0);
  const whole = stats0.get(root);
  if (scope === root || result.text >= MIN_SCOPED_TEXT) return withNotices(result, whole);
  const wide = cascadeIn(root, page, title, markers, stats0);
  return withNotices(wide.text > result.text ? wide : result, whole);
}

/** The winner's disclosures and closing bio go too (only the winner's: reading text is not cheap). */
function withNotices(result: PassResult, page: Stats | undefined): PassResult {
  for (const el of notices(result.parts, result.stats, result.pass.product)) result.prune.add(el);
  result.page = page;
  return result;
}

/** Share of the page text a `<main>` must hold to narrow the search to it. */
const MAIN_SHARE = 0.15;
/** Below this, a search inside `<main>` is retried on the whole page. */
const MIN_SCOPED_TEXT = 150;

function mainLandmark(root: Element, stats: StatsMap, markers: readonly Element[]): Element {
  const total = stats.get(root)?.text ?? 0;
  let best: Element = root;
  let bestText = 0;
  for (const m of markers) {
    if (tagOf(m) !== 'MAIN' && attr(m, 'role') !== 'main') continue;
    const t = stats.get(m)?.text ?? 0;
    if (t > bestText && t >= total * MAIN_SHARE) {
      best = m;
      bestText = t;
    }
  }
  return best;
}

const NOTHING: ReadonlySet<Element> = new Set();

function cascadeIn(root: Element, page: PageKind, title: string, markers: readonly Element[], stats0: StatsMap): PassResult {
  const { forum, product, article } = page;
  // loose passes still leave out comment threads, reviews, consent banners and footer / nav landmarks:
  // they outweigh a short text (a listing whose strict pass came up short would take in the whole page)
  let kept: Set<Element> | null = null;
  const none = () => (kept ??= findBoilerplate(root, page, stats0, markers, true));
  const passes: Array<() => Pass> = [
    () => ({ forum, thread: forum, product, article, weights: true, clean: true, dropped: findBoilerplate(root, page, stats0, markers) }),
    ...(forum
      ? []
      : [
          () => ({
            forum: true,
            product,
            article,
            weights: true,
            clean: true,
            dropped: findBoilerplate(root, { ...page, forum: true }, stats0, markers),
          }),
        ]),
    () => ({ forum, thread: forum, product, article, weights: true, clean: true, dropped: none() }),
    () => ({ forum, thread: forum, product, article, weights: false, clean: true, dropped: none() }),
    () => ({ forum, thread: forum, product, article, weights: false, clean: false, dropped: none() }),
  ];
  let best: PassResult | null = null;
  const enough = forum ? ENOUGH_THREAD_TEXT : ENOUGH_TEXT;
  // one measure per set left out (the loose passes share theirs); a measure's first element is its root,
  // so the page-wide one serves a pass leaving nothing out when the search is not scoped to <main>
  const measures = new Map<ReadonlySet<Element>, StatsMap>();
  if (stats0.keys().next().value === root) measures.set(NOTHING, stats0);
  const measured = (pass: Pass) => {
    const dropped = pass.dropped.size ? pass.dropped : NOTHING;
    let stats = measures.get(dropped);
    if (!stats) measures.set(dropped, (stats = measure(root, dropped)));
    return stats;
  };
  for (let i = 0; i < passes.length; i++) {
    const pass = passes[i]!();
    const result = runPass(root, pass, title, measured(pass));
    result.rung = i;
    // (what was cut as the post's comments or "read next" list counts here: the pass found a post with its tail)
    if (result.text + result.tailText >= enough) return result;
    if (!best || result.text > best.text) best = result;
    // (a short post is still a post: retried as a thread, its page would bring in the comments under it)
    if (i === 0 && !forum && shortBody(result)) i++;
  }
  return best!;
}

/** Text (visible characters) and share of it in good paragraphs that make a short result a whole post. */
const SHORT_BODY = 200;
const SHORT_BODY_GOOD = 0.6;

function shortBody(result: PassResult): boolean {
  let good = 0;
  for (const p of result.parts) good += result.stats.get(p)?.goodText ?? 0;
  return result.text >= SHORT_BODY && good >= result.partsText * SHORT_BODY_GOOD;
}
