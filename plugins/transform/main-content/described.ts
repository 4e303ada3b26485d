/**
 * Described sections on landing and docs pages: a block of headed sections, each with a paragraph
 * (feature cards, "next steps" tiles, a guide's topic list) whose titles are links. Readability's
 * link-density rule reads them as a link farm; off articles they are what the page says. Related-
 * post teasers on articles stay to the rule, and so do product grids (a picture per item, little prose).
 */
import type { Pass } from './pass-settings.ts';
import type { Stats } from './scoring.ts';

/** Link density up to which headed paragraphs are described sections (above it, a menu of links with blurbs). */
const MAX_DENSITY = 0.6;

export function describedSections(s: Stats, density: number, pass: Pass): boolean {
  if (pass.article || pass.forum || pass.product) return false;
  return s.headings > 0 && s.pTags > 0 && density < MAX_DENSITY && s.imgs <= s.pTags;
}
