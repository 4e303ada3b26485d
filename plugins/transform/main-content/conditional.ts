/**
 * Readability's conditional cleaning, as one rule: whether a block inside the content is a link
 * list, a form, a gallery, embeds or negatively weighted clutter, and so cleaned away (prune.ts).
 */
import { classWeight } from './boilerplate.ts';
import { describedSections } from './described.ts';
import type { Pass } from './pass-settings.ts';
import { linkDensity, type Stats, type StatsMap } from './scoring.ts';
import { attr, classAndId, tagOf } from './walk.ts';

/** Content this link-dense is a listing. */
export const LISTING_DENSITY = 0.3;

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

/**
 * Good paragraph text (less off articles: a landing page's banner pitch is one short paragraph) and
 * its share of the block, above which a block is prose whatever its class says …
 */
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
