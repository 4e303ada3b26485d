/**
 * Cleans inside the chosen content: Readability's conditional cleaning of link-heavy, form-like
 * and image-gallery blocks, negative-weight headings, and the heading that repeats the title.
 */
import { classWeight, isProductClutter } from './boilerplate.ts';
import type { Pass } from './pass-settings.ts';
import { linkDensity, type Stats, type StatsMap } from './scoring.ts';
import { closingLegal, isLegalBlock } from './legal.ts';
import { isReplyQuote } from './quotes.ts';
import { isPostClutter, pastedLinks } from './postparts.ts';
import { dropCleaned } from './postmeta.ts';
import { describedSections } from './described.ts';
import { recommendationBlock } from './recommend.ts';
import { keepRepeated } from './repeated.ts';
import { isReadNextHeading, readNextTail } from './tail.ts';
import { isControlBlock, isNamedControl } from './facets.ts';
import { HEADINGS } from './tags.ts';
import { attr, classAndId, contains, walkBelow, flatText, tagOf } from './walk.ts';

/** Content this link-dense is a listing. */
export const LISTING_DENSITY = 0.3;

/** Share of a part's text above which a block is never cleaned away whole. */
const MAJOR_SHARE = 0.6;

/** Share of a part above which a link list is the listing itself, not clutter beside the content. */
const LIST_SHARE = 0.4;

/** Text per picture above which an image-heavy block is a grid of cards, not a gallery. */
const CARD_TEXT = 60;
/** Good text per picture above which an image-rich block is not a gallery. */
const GALLERY_TEXT = 120;

/** Link density up to which a block with this much good paragraph text is prose, not a link block. */
const PROSE_DENSITY = 0.35;
const PROSE_TEXT = 50;

/** Tags Readability's conditional cleaning judges (a paragraph is never cleaned away whole). */
export const CONDITIONAL = new Set(['FORM', 'FIELDSET', 'TABLE', 'UL', 'OL', 'DIV', 'SECTION', 'HEADER', 'ASIDE', 'DL']);

function isDataTable(el: Element, s: Stats): boolean {
  if (attr(el, 'role') === 'presentation') return false;
  if (s.th > 0) return true;
  return s.tr >= 3 && s.td / s.tr >= 2 && s.text > 0 && s.tables === 1;
}

function inFigure(el: Element): boolean {
  for (let a = el.parentNode as Element | null; a?.tagName; a = a.parentNode as Element | null) if (tagOf(a) === 'FIGURE') return true;
  return false;
}

/**
 * Which of the cleaning rules removes this block, or null; 'prose' for a block the link rule would
 * have taken but that is kept as prose (it still counts as one of a listing's items, see
 * keepRepeated). Exported for diagnostics.
 */
export function dropReason(el: Element, stats: StatsMap, pass: Pass, linky: boolean, spread: boolean): string | null {
  const tag = tagOf(el);
  const s = stats.get(el);
  if (!s) return null;
  if (tag === 'TABLE' && isDataTable(el, s)) return null;
  if (s.code > 0 && s.text > 0 && linkDensity(s) < 0.5) return null;
  const weight = pass.weights ? classWeight(el, pass.forum) : 0;
  if (weight + s.score < 0 && !negativeProse(el, s, pass.article ? NEG_PROSE_TEXT : NEG_PROSE_LANDING)) return 'negative';
  if (s.commas >= 10) return null;
  const isList = tag === 'UL' || tag === 'OL' || tag === 'DL';
  const p = s.pTags;
  const img = s.imgs;
  const li = s.lis - 100;
  const density = linkDensity(s);
  const headingDensity = s.text ? s.headingText / s.text : 0;
  // (sections of a landing page carry icons and pictures: not a gallery)
  // (nor is a grid of cards, each picture with its name and price below, or a list of items with
  // a good paragraph per picture)
  if (img > 1 && p / img < 0.5 && !spread && s.text < img * CARD_TEXT && s.goodText < img * GALLERY_TEXT && !inFigure(el)) return 'gallery';
  if (!isList && li > p) return 'lis';
  if (s.inputs > Math.floor(p / 3)) return 'inputs';
  if (!isList && headingDensity < 0.9 && s.text < 25 && (img === 0 || img > 2) && density > 0) return 'short-linky';
  if (linky) return null;
  // (a block with a real sentence or two and a few links in it, an FAQ answer or a card naming an
  // author or a product, is prose: Readability's 0.2 cuts those)
  if (density > 0.2 && describedSections(s, density, pass)) return null;
  if (!isList && weight < 25 && density > 0.2) return density < PROSE_DENSITY && s.goodText >= PROSE_TEXT ? 'prose' : 'links';
  if (weight >= 25 && density > 0.5) return 'links-positive';
  if ((s.embeds === 1 && s.text < 75) || s.embeds > 1) return 'embeds';
  return null;
}

/** Good paragraph text (less off articles: a landing page's banner pitch is one short paragraph) and its share of the block, above which a block is prose whatever its class says … */
const NEG_PROSE_TEXT = 150,
  NEG_PROSE_LANDING = 60;
const NEG_PROSE_SHARE = 0.6;
/** … unless the class names a part that is never content, however wordy. */
const STRONG_NEGATIVE = /footer|hidden|sidebar|comment|menu|form/;

/**
 * A block of real, link-poor paragraphs whose class only weakly says clutter ("banner", "media",
 * "contact", "meta", a "nav" inside a longer word): landing and product pages name their text
 * sections so ("hero-banner", "media-cards", "contact_section").
 */
function negativeProse(el: Element, s: Stats, min: number): boolean {
  if (s.goodText < min || s.goodText < s.text * NEG_PROSE_SHARE || linkDensity(s) >= 0.15) return false;
  return !STRONG_NEGATIVE.test(classAndId(el));
}

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
