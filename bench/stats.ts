/**
 * The few statistics every benchmark reports, in one place so they agree: a true median (the mean of
 * the middle two for an even count — with two rounds, the lower-index pick reported the larger one)
 * and nearest-rank quantiles for latencies and per-page times.
 */

/** Nearest-rank quantile (q in 0…1) of unsorted values; NaN for none. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : NaN;
}

/** The median; for an even count, the mean of the two middle values. NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return NaN;
  return n % 2 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
}
