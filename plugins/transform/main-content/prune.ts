/**
 * Cleans inside the chosen content: Readability's conditional cleaning of link-heavy, form-like
 * and image-gallery blocks (the rule: conditional.ts), negative-weight headings, and the heading
 * that repeats the title.
 */
import { classWeight, isProductClutter } from './boilerplate.ts';
import { CONDITIONAL, dropReason, LISTING_DENSITY } from './conditional.ts';
import type { Pass } from './pass-settings.ts';
import { linkDensity, type StatsMap } from './scoring.ts';
import { closingLegal, isLegalBlock } from './legal.ts';
import { isReplyQuote } from './quotes.ts';
import { isPostClutter, pastedLinks } from './postparts.ts';
import { dropCleaned } from './postmeta.ts';
import { recommendationBlock } from './recommend.ts';
import { keepRepeated } from './repeated.ts';
import { isReadNextHeading, readNextTail } from './tail.ts';
import { isControlBlock, isNamedControl } from './facets.ts';
import { HEADINGS } from './tags.ts';
import { contains, walkBelow, flatText, tagOf } from './walk.ts';

/** Share of a part's text above which a block is never cleaned away whole. */
const MAJOR_SHARE = 0.6;

/** Share of a part above which a link list is the listing itself, not clutter beside the content. */
const LIST_SHARE = 0.4;

function similar(a: string, b: string): number {
  const ta = a
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const tb = new Set(
    b
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean),
  );
  if (!ta.length || !tb.size) return 0;
  let hit = 0;
  for (const t of ta) if (tb.has(t)) hit++;
  return hit / Math.max(ta.length, tb.size);
}

/**
 * What to drop inside the content parts (outermost elements only): the heading that repeats the
 * title, negative headings and, when `pass.clean`, Readability's conditional cleaning.
 */
export function findPrunable(parts: Element[], stats: StatsMap, pass: Pass, title: string, spread = false, whole = false): Set<Element> {
  const drop = new Set<Element>();
  // the product name is part of a product's content; elsewhere the title heading is metadata
  let titleSeen = false;
  const listing = !pass.article && !pass.forum;
  let total = 0;
  for (const part of parts) total += stats.get(part)?.text ?? 0;
  for (const part of parts) {
    // a listing (teasers, cards, link lists): links are the content, so link density says nothing
    const ps = stats.get(part);
    // (likewise in content spread over many sections, whose cards end in "learn more" links)
    const linky = spread || (!!ps && linkDensity(ps) > LISTING_DENSITY);
    // a wrapper holding most of the part is the content itself: look inside it instead
    // (on product pages, whose spec lists and short blocks look like clutter to Readability's rules)
    const major = pass.product ? (ps?.text ?? 0) * MAJOR_SHARE : Infinity;
    const cleaned: Element[] = [];
    const recs: Element[] = [];
    let readNext: Element | null = null;
    const legal: Element[] = [];
    const spared: Element[] = [];
    walkBelow(part, (el) => {
      if (pass.dropped.has(el)) return true;
      const tag = tagOf(el);
      // (a reply's quote of an earlier post repeats that post; its counters and "Re:" subject file it, see postparts.ts)
      if (
        pass.forum &&
        el !== part &&
        (((tag === 'BLOCKQUOTE' || tag === 'DIV' || tag === 'ASIDE') && isReplyQuote(el)) || isPostClutter(el, tag, stats, title))
      ) {
        drop.add(el);
        return true;
      }
      if (pass.clean && (tag === 'H2' || tag === 'H3' || tag === 'H4' || tag === 'H5')) {
        const rec = recommendationBlock(el, part, stats);
        if (rec) {
          recs.push(rec);
          return true;
        }
      }
      if (el !== part && pass.clean && !pass.product && isLegalBlock(el)) {
        legal.push(el);
        return true;
      }
      if (HEADINGS.has(tag) && !spread && isReadNextHeading(flatText(el))) readNext = el;
      if (tag === 'H1' || tag === 'H2') {
        if (titleSeen && !pass.weights) return false;
        const text = flatText(el);
        if (
          (pass.weights && classWeight(el, pass.forum) < 0) ||
          (!titleSeen && !pass.product && title && text && similar(text, title) > 0.75)
        ) {
          titleSeen = true;
          drop.add(el);
          return true;
        }
        return false;
      }
      // a listing's sort, filter and count controls, by class or by label (see facets.ts)
      if (listing && el !== part && (isControlBlock(el, tag, stats) || isNamedControl(el, stats))) {
        drop.add(el);
        return true;
      }
      // (after the pick, not as boilerplate: a seller-feedback list or small print still tells where the product is)
      if (pass.product && el !== part && isProductClutter(el) && (stats.get(el)?.text ?? 0) <= major) {
        drop.add(el);
        return true;
      }
      if (el !== part && pass.clean && CONDITIONAL.has(tag) && (stats.get(el)?.text ?? 0) <= major) {
        const why = dropReason(el, stats, pass, linky, spread || whole);
        if (why === 'prose') spared.push(el);
        // (a link list holding a big share of the part is what the page lists: a category's members)
        else if ((why === 'lis' || why === 'links') && (stats.get(el)?.text ?? 0) > (ps?.text ?? 0) * LIST_SHARE) return false;
        else if (why && !(pass.forum && why.startsWith('links') && pastedLinks(el, stats))) {
          cleaned.push(el);
          return true;
        }
      }
      return false;
    });
    // (a recommendation block was seen only at its heading, after the walk had entered it)
    for (const el of keepRepeated(cleaned, spared, stats, ps?.text ?? 0))
      if (!recs.some((r) => contains(r, el))) dropCleaned(el, stats.get(el)?.text ?? 0, pass.forum, drop);
    for (const r of recs) if (!recs.some((o) => o !== r && contains(o, r))) drop.add(r);
    if (readNext) for (const el of readNextTail(readNext, part, stats, total)) drop.add(el);
    for (const el of closingLegal(legal, part, stats)) drop.add(el);
  }
  return drop;
}
