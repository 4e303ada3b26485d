/**
 * A listing's rows inside the content: blocks that in-content cleaning would drop one by one
 * (short, link-only, meta-classed) but that, repeated often enough with one tag and class, are
 * the content itself.
 */
import { boilerClassWords } from './boilerplate.ts';
import type { StatsMap } from './scoring.ts';
import { attr, tagOf } from './walk.ts';

/** Blocks of one tag and class, repeated this often … */
const REPEAT_MIN = 4;
/** … and together holding this share of the part, are its items (a listing's rows, cards). */
const REPEAT_SHARE = 0.3;

/**
 * The cleaned blocks minus those that are the part's repeated items: a listing's rows look like
 * clutter one by one (short, link-only, meta-classed) but their sheer number says they are the
 * content. Rows spared as prose count towards their group too (else sparing some would doom the rest).
 */
export function keepRepeated(cleaned: Element[], spared: Element[], stats: StatsMap, partText: number): Element[] {
  if (cleaned.length + spared.length < REPEAT_MIN) return cleaned;
  const groups = new Map<string, { n: number; text: number }>();
  const keyOf = (el: Element) => {
    // (by the boilerplate words when there are some: like rows differ in their layout classes)
    const cls = boilerClassWords(el) || attr(el, 'class');
    return cls ? `${tagOf(el)} ${cls}` : '';
  };
  for (const list of [cleaned, spared]) {
    for (const el of list) {
      const key = keyOf(el);
      if (!key) continue;
      const g = groups.get(key) ?? { n: 0, text: 0 };
      g.n++;
      g.text += stats.get(el)?.text ?? 0;
      groups.set(key, g);
    }
  }
  return cleaned.filter((el) => {
    const g = groups.get(keyOf(el));
    return !g || g.n < REPEAT_MIN || g.text < partText * REPEAT_SHARE;
  });
}
