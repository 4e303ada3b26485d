/**
 * The content confidence: the chance that the returned content is the page's main content, no
 * more and no less — that it agrees with the text people mark as the page's content (word
 * 4-gram F1 ≥ 0.8). A logistic model of what the extraction found, fitted on the dev set, where
 * it is calibrated in both modes (bench/extraction-calibration.ts: pages given 0.3 come out right
 * about 30 % of the time). Prose in long link-poor paragraphs raises it; links, pictures, many
 * headings, a loose cascade pass, a description standing in and, with only_main_content off, the
 * boilerplate around the content lower it.
 */
import type { PageType } from '../../../core/kit.ts';
import type { PageSignals } from './signals.ts';

const W = {
  prose: 3.2,
  links: -2.3,
  /** Per 20 pictures per 1,000 characters, and per 10 headings (where the measure stops growing). */
  pictures: -1.3,
  headings: -0.7,
  loose: -0.35,
  described: -0.35,
  /** Share of the returned text outside the block the content most likely is (whole pages only). */
  unfocused: -3.6,
  short: -0.25,
};
/** Product pages come out worse than their shape says: specs tabs, reviews and carousels around a short description. */
const TYPE_W: Partial<Record<PageType, number>> = { product: -1.4, forum: -0.2, listing: -0.2 };
/** Results this short (visible characters) are often a fragment. */
const SHORT = 300;

export function contentConfidence(signals: PageSignals, type: PageType): number {
  const c = signals.content ?? signals.page;
  const text = Math.max(1, c.text);
  const unfocused = signals.content ? 0 : 1 - Math.min(1, (signals.likely?.text ?? 0) / Math.max(1, signals.page.text));
  const z =
    W.prose * (c.goodText / text) +
    W.links * (c.link / text) +
    W.pictures * (Math.min(20, (1000 * c.imgs) / text) / 20) +
    W.headings * (Math.min(10, (1000 * c.headings) / text) / 10) +
    (signals.rung > 0 ? W.loose : 0) +
    (signals.described ? W.described : 0) +
    W.unfocused * unfocused +
    (signals.text < SHORT ? W.short : 0) +
    (TYPE_W[type] ?? 0);
  return 1 / (1 + Math.exp(-z));
}
