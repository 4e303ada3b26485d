/**
 * Boilerplate blocks of a cleaned subtree: the outermost blocks boilerplate.ts recognises, less
 * those holding the page's main content, a callout in its flow, or a listing's repeated items.
 */
import { boilerClassWords, boilerplateKind, type PageKind } from './boilerplate.ts';
import { dropAllButMeta, holdsPostMeta } from './postmeta.ts';
import type { Stats, StatsMap } from './scoring.ts';
import { attr, tagOf, walkBelow } from './walk.ts';

/** Paragraph text beyond which a role=tablist block is content (an accordion), not a tab strip. */
const TAB_TEXT = 200;

const CODE = new Set(['PRE', 'CODE']);

/**
 * Boilerplate blocks under `root` (outermost only), not removed: the caller measures around them
 * and may retry without. Blocks holding most of the text or a content landmark are kept.
 * `loose` finds just the comment, review and consent blocks and the landmark elements and roles
 * (footer, nav, aside, role=navigation …): what even loose passes leave out.
 */
export function findBoilerplate(root: Element, kind: PageKind, stats: StatsMap, markers: readonly Element[], loose = false): Set<Element> {
  const total = stats.get(root)?.text ?? 0;
  const totalGood = stats.get(root)?.goodText ?? 0;
  const protect = new Set<Element>();
  for (const m of markers) {
    const ms = stats.get(m);
    if (!ms || ms.text < total * 0.15) continue;
    for (let a: Node | null = m; a && a !== root; a = a.parentNode) protect.add(a as Element);
  }
  const drop = new Set<Element>();
  const byClass: Element[] = [];
  walkBelow(root, (el) => {
    if (protect.has(el)) return false;
    // (code is never boilerplate: a highlighter's spans are named "hljs-comment", "token comment")
    if (CODE.has(tagOf(el))) return true;
    const why = boilerplateKind(el, kind);
    const always = why === 'comment' || why === 'consent';
    // (class words are what misfire on odd markup; a footer or navigation landmark is that on any page)
    if (!why || (loose && (why === 'class' || why === 'tabs'))) return false;
    const s = stats.get(el);
    if (s && s.text > total * 0.5 && !always && !(why === 'tag' && linkDump(s))) return false;
    // (an <aside> holding most of the page's prose is where the page keeps its post, not a sidebar)
    if (why === 'tag' && tagOf(el) === 'ASIDE' && s && s.goodText > totalGood * MAIN_PROSE && !linkDump(s)) return false;
    if (why === 'tag' && !kind.forum && s && isCallout(el, s)) return false;
    // a tab strip is a row of labels; Bootstrap accordions (FAQs) carry role=tablist around their text
    if (why === 'tabs' && s && s.goodText >= TAB_TEXT) return false;
    // (on a thread, an author cell keeps the author's name and the post's date)
    if (kind.forum && !always && holdsPostMeta(el)) {
      dropAllButMeta(el, drop);
      return true;
    }
    drop.add(el);
    if (why === 'class') byClass.push(el);
    return true;
  });
  for (const el of repeatedBlocks(byClass, stats, total)) drop.delete(el);
  return drop;
}

/** Share of the page's good paragraph text an <aside> must hold to be the content. */
const MAIN_PROSE = 0.5;

/** Prose (visible characters, share of good paragraph text) an <aside> needs to be a callout … */
const CALLOUT_TEXT = 150;
const CALLOUT_GOOD = 0.8;
/** … and the paragraphs beside it. */
const CALLOUT_SIBLINGS = 2;

/**
 * An <aside> set among an article's paragraphs and holding link-free prose is a callout box or pull
 * quote in the flow of the text ("Not all vegetarians are the same …"), not a sidebar: sidebars sit
 * beside the text, hold links and widgets, or say what they are in their class.
 */
function isCallout(el: Element, s: Stats): boolean {
  if (tagOf(el) !== 'ASIDE' || s.text < CALLOUT_TEXT || s.goodText < s.text * CALLOUT_GOOD || s.link > s.text * 0.1) return false;
  // (a pull quote repeats a sentence of the text)
  if (boilerClassWords(el) || /pull[-_]?quote/i.test(attr(el, 'class') ?? '')) return false;
  let paras = 0;
  for (let c = el.parentNode?.firstChild ?? null; c && paras < CALLOUT_SIBLINGS; c = c.nextSibling)
    if ((c as Element).tagName === 'P') paras++;
  return paras >= CALLOUT_SIBLINGS;
}

/** A landmark (footer, nav) that is a mass of links or short labels (city and zip lists, site maps) is chrome however big. */
function linkDump(s: Stats): boolean {
  return s.link > s.text * 0.5 || s.goodText < s.text * 0.1 || s.commas * 1000 < s.text;
}

/**
 * Class-matched blocks that repeat (one tag and class, 3 or more) and together hold a good share of
 * the text: a listing built of "recirc" or "promo" rows is made of them, so they are its content
 * (a job board's rows named "listing__categories" hold a third of its page, beside a long nav and footer).
 */
/** Share of the page's text that like class-matched blocks must hold together to be its items. */
const REPEATED_SHARE = 0.3;

function repeatedBlocks(els: Element[], stats: StatsMap, total: number): Element[] {
  if (els.length < 3) return [];
  const groups = new Map<string, Element[]>();
  for (const el of els) {
    // (grouped by the words that matched: a listing's rows vary in their layout classes)
    const key = `${tagOf(el)} ${boilerClassWords(el) || attr(el, 'class') || ''}`;
    const g = groups.get(key);
    if (g) g.push(el);
    else groups.set(key, [el]);
  }
  const out: Element[] = [];
  for (const g of groups.values()) {
    if (g.length < 3) continue;
    let text = 0;
    for (const el of g) text += stats.get(el)?.text ?? 0;
    if (text > total * REPEATED_SHARE) out.push(...g);
  }
  return out;
}
