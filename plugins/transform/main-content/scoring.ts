/**
 * One bottom-up pass that measures every element: visible text, link text, paragraph count,
 * commas, and a Readability-style content score (each paragraph scores its ancestors with decay).
 */
import { BLOCK, HEADINGS } from './tags.ts';
import { walkElementsAndText } from '../../../core/kit.ts';
import { isVisible, tagOf } from './walk.ts';

export interface Stats {
  /** Visible (non-whitespace) characters of all text below. */
  text: number;
  /** Of which inside links. */
  link: number;
  /** Text directly inside this element or its inline descendants (its own paragraph). */
  inl: number;
  inlLink: number;
  inlCommas: number;
  /** Paragraph-like blocks (≥ 25 chars of own text) below. */
  paras: number;
  /** Long, link-poor paragraphs below. */
  goodText: number;
  headings: number;
  /** Text inside headings. */
  headingText: number;
  commas: number;
  pTags: number;
  inputs: number;
  embeds: number;
  lis: number;
  /** PRE/CODE elements below. */
  code: number;
  /** TH/CAPTION/THEAD below (data-table signs), TR and TD counts, nested TABLEs. */
  th: number;
  tr: number;
  td: number;
  tables: number;
  imgs: number;
  /** Content score collected from paragraphs below. */
  score: number;
}

export type StatsMap = Map<Element, Stats>;

/** Zero counts: a block's stats before its text is measured. */
export const newStats = (): Stats => ({
  text: 0,
  link: 0,
  inl: 0,
  inlLink: 0,
  inlCommas: 0,
  paras: 0,
  goodText: 0,
  headings: 0,
  headingText: 0,
  commas: 0,
  pTags: 0,
  inputs: 0,
  embeds: 0,
  lis: 0,
  code: 0,
  th: 0,
  tr: 0,
  td: 0,
  tables: 0,
  imgs: 0,
  score: 0,
});

const isComma = (c: number) => c === 44 || c === 0x060c || c === 0xff0c || c === 0x3001 || c === 0xfe50;

/** Adds a text node's visible characters and commas to its element's own text (this loop sees every character of the page). */
function countText(s: Stats, v: string): void {
  let len = 0;
  let k = 0;
  for (let i = 0; i < v.length; i++) {
    const ch = v.charCodeAt(i);
    if (isVisible(ch)) {
      len++;
      if (ch < 0x80 ? ch === 44 : isComma(ch)) k++;
    }
  }
  s.text += len;
  s.inl += len;
  s.inlCommas += k;
  s.commas += k;
}

/** Measures every element under `root`. */
export function measure(root: Element, dropped?: ReadonlySet<Element>): StatsMap {
  const order: Element[] = [root];
  const map: StatsMap = new Map([[root, newStats()]]);
  // (text is counted as the walk passes it, into its element: reading every element's children
  // again through linkedom's getters cost as much as the walk)
  walkElementsAndText(
    root,
    (el) => {
      if (tagOf(el) === 'HEAD' || dropped?.has(el)) return true;
      order.push(el);
      map.set(el, newStats());
    },
    (node) => countText(map.get(node.parentNode as Element)!, node.nodeValue ?? ''),
  );
  for (let i = order.length - 1; i >= 0; i--) {
    const el = order[i]!;
    const s = map.get(el)!;
    const tag = tagOf(el);
    if (tag === 'A') {
      s.link = s.text;
      s.inlLink = s.inl;
    } else if (tag === 'IMG' || tag === 'PICTURE') s.imgs++;
    else if (tag === 'LI') s.lis++;
    else if (tag === 'P') s.pTags++;
    else if (tag === 'PRE' || tag === 'CODE') s.code++;
    else if (tag === 'TH' || tag === 'CAPTION' || tag === 'THEAD') s.th++;
    else if (tag === 'TR') s.tr++;
    else if (tag === 'TD') s.td++;
    else if (tag === 'TABLE') s.tables++;
    else if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || tag === 'BUTTON') s.inputs++;
    else if (tag === 'IFRAME' || tag === 'EMBED' || tag === 'OBJECT' || tag === 'VIDEO') s.embeds++;
    else if (HEADINGS.has(tag)) {
      s.headings++;
      s.headingText = s.text;
    }
    const block = BLOCK.has(tag);
    if (block && s.inl >= 25) {
      s.paras++;
      const density = s.inlLink / s.inl;
      if (density < 0.3) s.goodText += s.inl - s.inlLink;
    }
    // list items count as text but, as in Readability, give no points: a gallery's or teaser list's
    // captions would otherwise lift their list above the article
    if (block && s.inl >= 25 && tag !== 'LI') {
      // Readability: 1 + commas + one point per 100 chars (max 3), to the parent, grandparent (/2), then /(level*3)
      const points = 1 + s.inlCommas + Math.min(Math.floor(s.inl / 100), 3);
      let level = 0;
      for (let a = el.parentNode as Element | null; a && level < 5; a = a.parentNode as Element | null, level++) {
        const as = map.get(a);
        if (!as) break;
        as.score += points / (level === 0 ? 1 : level === 1 ? 2 : level * 3);
      }
    }
    const parent = el.parentNode as Element | null;
    const ps = parent && el !== root ? map.get(parent) : undefined;
    if (!ps) continue;
    ps.text += s.text;
    ps.link += s.link;
    ps.paras += s.paras;
    ps.goodText += s.goodText;
    ps.headings += s.headings;
    ps.headingText += s.headingText;
    ps.commas += s.commas;
    ps.pTags += s.pTags;
    ps.inputs += s.inputs;
    ps.embeds += s.embeds;
    ps.code += s.code;
    ps.th += s.th;
    ps.tr += s.tr;
    ps.td += s.td;
    ps.tables += s.tables;
    ps.lis += s.lis;
    ps.imgs += s.imgs;
    if (!block) {
      ps.inl += s.inl;
      ps.inlLink += s.inlLink;
      ps.inlCommas += s.inlCommas;
    }
  }
  return map;
}

export function linkDensity(s: Stats): number {
  return s.text > 0 ? s.link / s.text : 0;
}
