/**
 * The statistics of the calibration benchmark (extraction-calibration.ts): page-type accuracy and
 * confusion, mean F1 per confidence decile, Spearman's rank correlation.
 */

export interface Observation {
  id: string;
  source: string;
  /** The dev set's page type. */
  truth: string;
  /** The page type Trawl gave ('none' when the scrape failed). */
  type: string;
  confidence: number;
  f1: number;
}

/** Ranks from 1, ties sharing their mean rank. */
function ranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    for (let k = i; k <= j; k++) out[order[k]![1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return out;
}

function pearson(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  const mx = x.reduce((s, v) => s + v, 0) / n;
  const my = y.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : 0;
}

/** Spearman's rho: Pearson's correlation of the ranks. */
export const spearman = (x: readonly number[], y: readonly number[]): number => pearson(ranks(x), ranks(y));

export interface Decile {
  min: number;
  max: number;
  n: number;
  /** Mean confidence and mean F1 of the bin, and its share of pages that came out right (F1 ≥ GOOD_F1). */
  confidence: number;
  f1: number;
  good: number;
  ids: Set<string>;
}

/** What the confidence predicts: a page whose F1 reaches this came out right. */
export const GOOD_F1 = 0.8;

/** Ten bins of (nearly) equal size by confidence, lowest first, with their means. */
export function deciles(obs: readonly Observation[]): Decile[] {
  const sorted = [...obs].sort((a, b) => a.confidence - b.confidence);
  const bins: Decile[] = [];
  for (let d = 0; d < 10; d++) {
    const part = sorted.slice(Math.round((d * sorted.length) / 10), Math.round(((d + 1) * sorted.length) / 10));
    if (!part.length) continue;
    const mean = (of: (o: Observation) => number) => part.reduce((s, o) => s + of(o), 0) / part.length;
    bins.push({
      min: part[0]!.confidence,
      max: part.at(-1)!.confidence,
      n: part.length,
      confidence: mean((o) => o.confidence),
      f1: mean((o) => o.f1),
      good: mean((o) => (o.f1 >= GOOD_F1 ? 1 : 0)),
      ids: new Set(part.map((o) => o.id)),
    });
  }
  return bins;
}

export interface TypeReport {
  accuracy: number;
  bySource: Record<string, { accuracy: number; pages: number }>;
  /** Per true type: share recognised; how often the type was predicted and how often rightly. */
  byType: Record<string, { pages: number; recall: number; predicted: number; precision: number }>;
  /** confusion[true][predicted] = pages. */
  confusion: Record<string, Record<string, number>>;
}

export function typeReport(obs: readonly Observation[], types: readonly string[]): TypeReport {
  const right = (o: Observation) => o.type === o.truth;
  const share = (list: readonly Observation[]) => list.filter(right).length / (list.length || 1);
  const bySource: TypeReport['bySource'] = {};
  for (const source of new Set(obs.map((o) => o.source))) {
    const list = obs.filter((o) => o.source === source);
    bySource[source] = { accuracy: share(list), pages: list.length };
  }
  const byType: TypeReport['byType'] = {};
  const confusion: TypeReport['confusion'] = {};
  for (const t of types) {
    const truly = obs.filter((o) => o.truth === t);
    const predicted = obs.filter((o) => o.type === t);
    if (!truly.length && !predicted.length) continue;
    byType[t] = { pages: truly.length, recall: share(truly), predicted: predicted.length, precision: share(predicted) };
    if (!truly.length) continue;
    const row: Record<string, number> = {};
    for (const o of truly) row[o.type] = (row[o.type] ?? 0) + 1;
    confusion[t] = row;
  }
  return { accuracy: share(obs), bySource, byType, confusion };
}
