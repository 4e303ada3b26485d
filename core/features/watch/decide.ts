/**
 * Whether a check notifies, and why: the watch's filters and conditions applied to what changed.
 * The snapshot keeps `status` (did the text change) apart from this decision (`notified`,
 * `reason`), so the timeline says why a check notified or stayed quiet. In order:
 * - the first check never notifies;
 * - `block_text` present: quiet, whatever else happened;
 * - conditions and restock, when set, are the only things that notify (a number crossing a bound
 *   or moving by a percentage; offers going from out of stock to in stock);
 * - otherwise a text change notifies, narrowed by `only_new_lines` (lines never seen before),
 *   `changes` (added or removed lines only) and `trigger_text` (only while present).
 * Also the seen-lines memory of `only_new_lines`: bounded, oldest forgotten first.
 */
import type { Comparison } from '../diff/compare.ts';
import { firstPresent } from '../diff/normalise.ts';
import type { Condition, Observed, WatchFilters } from './filters.ts';

export interface Decision {
  notified: boolean;
  reason: string | null;
  /** A short word diff of the page's text (empty when the text did not change). */
  excerpt: string;
}

export interface DecisionInput {
  filters: WatchFilters;
  /** Null on the first check. */
  comparison: Comparison | null;
  /** The page's text lines now and at the previous check (for block and trigger text). */
  currentLines: readonly string[];
  previousLines: readonly string[];
  observed: Observed | null;
  previousObserved: Observed | null;
  /** Hashes of lines seen before (only_new_lines). */
  seen: ReadonlySet<string>;
}

const quote = (text: string) => `"${text}"`;
const round = (n: number) => Number(n.toPrecision(12));

/** The reason a condition is met now, or null. Crossing: the previous number was not past the bound. */
export function conditionMet(c: Condition, now: number | null, before: number | null): string | null {
  if (now === null) return null;
  const label = c.selector;
  if (c.below !== undefined && now < c.below && !(before !== null && before < c.below)) return `${label} ${round(now)} below ${c.below}`;
  if (c.above !== undefined && now > c.above && !(before !== null && before > c.above)) return `${label} ${round(now)} above ${c.above}`;
  if (c.changePercent !== undefined && before !== null && before !== 0) {
    const percent = ((now - before) / Math.abs(before)) * 100;
    if (Math.abs(percent) >= c.changePercent)
      return `${label} ${round(before)} → ${round(now)} (${percent > 0 ? '+' : ''}${round(Number(percent.toFixed(1)))}%)`;
  }
  return null;
}

/** Cheap stable line hashes for the seen-lines memory (64-bit, base 36). */
export const lineHash = (identity: string) => Bun.hash(identity).toString(36);

/** The memory after a check: the earlier hashes, then this check's new ones, the oldest beyond `keep` forgotten. */
export function rememberLines(seen: readonly string[], identities: readonly string[], keep: number): string[] {
  const known = new Set(seen);
  const fresh = [...new Set(identities.map(lineHash))].filter((h) => !known.has(h));
  const all = seen.concat(fresh);
  return all.length > keep ? all.slice(all.length - keep) : all;
}

function textDecision(input: DecisionInput, comparison: Comparison): Pick<Decision, 'notified' | 'reason'> {
  const { filters } = input;
  let added = comparison.addedIdentities.length;
  let removed = comparison.removed.length;
  if (filters.onlyNewLines) {
    added = comparison.addedIdentities.filter((id) => !input.seen.has(lineHash(id))).length;
    removed = 0;
    if (added === 0) return { notified: false, reason: 'only lines seen before' };
  }
  const linksOnly = added === 0 && removed === 0 && (comparison.linksAdded > 0 || comparison.linksRemoved > 0);
  if (filters.changes === 'added' && added === 0 && !linksOnly) return { notified: false, reason: 'only removed lines' };
  if (filters.changes === 'removed' && removed === 0 && !linksOnly) return { notified: false, reason: 'only added lines' };
  if (filters.triggerText.length) {
    const trigger = firstPresent(input.currentLines, filters.triggerText);
    if (!trigger) return { notified: false, reason: 'trigger_text not present' };
    const before = firstPresent(input.previousLines, [trigger]);
    return {
      notified: true,
      reason: before ? `changed; trigger_text ${quote(trigger)} present` : `trigger_text ${quote(trigger)} appeared`,
    };
  }
  return { notified: true, reason: 'changed' };
}

export function decide(input: DecisionInput): Decision {
  const { filters, comparison } = input;
  const excerpt = comparison?.changed ? comparison.excerpt : '';
  if (!comparison) return { notified: false, reason: null, excerpt };
  const blocked = filters.blockText.length ? firstPresent(input.currentLines, filters.blockText) : null;
  if (blocked) return { notified: false, reason: `block_text ${quote(blocked)} present`, excerpt };

  if (filters.conditions.length || filters.restock) {
    const met = filters.conditions
      .map((c, i) => conditionMet(c, input.observed?.values[i] ?? null, input.previousObserved?.values[i] ?? null))
      .filter(Boolean);
    if (filters.restock && input.previousObserved?.stock === 'out' && input.observed?.stock === 'in') met.push('back in stock');
    if (met.length) return { notified: true, reason: met.join('; '), excerpt };
    const stock = filters.restock && input.observed?.stock === 'out' ? 'out of stock' : null;
    const quiet = stock ?? (comparison.changed ? 'changed; no condition met' : null);
    return { notified: false, reason: quiet, excerpt };
  }
  if (!comparison.changed) return { notified: false, reason: null, excerpt };
  return { ...textDecision(input, comparison), excerpt };
}
