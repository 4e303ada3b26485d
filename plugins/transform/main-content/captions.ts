/**
 * Captions and photo credits inside an article's body: the text of a `<figcaption>` or of a block
 * classed as a caption or credit ("wp-caption-text", "photo-credit"), and lines that only credit a
 * picture ("Photo: Jane Roe/Harbour Archive", "(Credit: AP)", "Image courtesy of …"). Readers
 * copying an article take the paragraphs, not the words under its pictures. Only on prose pages
 * (main-content.ts decides): a gallery's or a product's captions are what it shows.
 */
import { linesOf, removeLine } from './lines.ts';
import { attr, walkBelow, removeNode, tagOf, visibleLength } from './walk.ts';

/** Longest caption block removed (visible characters): longer, it is a passage set beside a picture. */
const MAX_CAPTION = 300;
/** Share of a part's text its captions may hold at most. */
const MAX_SHARE = 0.2;
/** "Figure 2. …", "Table 1: …": a numbered caption the text refers to, part of a report. */
const NUMBERED = /^(?:fig(?:ure)?|table|chart|exhibit|plate|map)\.?\s*\d/i;
/** Class or id words of caption and credit blocks. */
const CAPTION_CLASS = /(?:^|[\s_-])(?:caption|captions|credit|credits|photo-?credit|image-?credit|wp-caption-text|cutline)(?:[\s_-]|$)/i;
/** A line that only credits a picture. */
const CREDIT_LINE =
  /^\(?\s*(?:(?:photo|image|picture|illustration|graphic|video)s?\s*(?:credits?|courtesy|source)?\s*(?::|by\b)|(?:photo|image)\s+courtesy\b|credits?\s*:|courtesy\s+(?:of\s+)?\S)/i;
const MAX_CREDIT = 160;

/** Removes caption blocks and credit lines under `parts`; returns how many went. */
export function dropCaptions(parts: readonly Element[]): number {
  let removed = 0;
  for (const part of parts) {
    const blocks: Element[] = [];
    walkBelow(part, (el) => {
      if (el === part || !isCaption(el)) return false;
      blocks.push(el);
      return true;
    });
    const texts = blocks.map((el) => el.textContent ?? '');
    const sizes = texts.map(visibleLength);
    // (captions holding much of the text are what the page shows: a gallery, a grid of products)
    if (blocks.length && sizes.reduce((a, b) => a + b, 0) > visibleLength(part.textContent ?? '') * MAX_SHARE) continue;
    blocks.forEach((el, i) => {
      if (sizes[i]! > MAX_CAPTION || NUMBERED.test(texts[i]!.trim())) return;
      removeNode(el);
      removed++;
    });
    for (const line of linesOf(part)) {
      if (line.chars > MAX_CREDIT || !CREDIT_LINE.test(line.text)) continue;
      removeLine(line, part);
      removed++;
    }
  }
  return removed;
}

function isCaption(el: Element): boolean {
  const tag = tagOf(el);
  if (tag === 'FIGCAPTION') return true;
  if (!el.hasAttributes() || tag === 'IMG' || tag === 'FIGURE') return false;
  const name = `${attr(el, 'class') ?? ''} ${attr(el, 'id') ?? ''}`;
  return CAPTION_CLASS.test(name);
}
