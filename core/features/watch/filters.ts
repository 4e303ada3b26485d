/**
 * What a watch says matters, as stored and as the API takes it: the volatile-text presets, the
 * `changes` mode, number conditions and what a check observed (the numbers conditions read, the
 * stock state) so the next check can tell a crossing or a restock.
 */

import { IGNORE_PATTERNS, type IgnorePattern } from '../diff/normalise.ts';

/** Volatile-text presets (core/features/diff/normalise.ts); all on by default. */
export { IGNORE_PATTERNS, type IgnorePattern };

export const CHANGE_MODES = ['any', 'added', 'removed'] as const;
export type ChangeMode = (typeof CHANGE_MODES)[number];

/** A number read from the first element matching `selector`; at least one bound is set. */
export interface Condition {
  selector: string;
  below?: number;
  above?: number;
  /** Notify when the number moved by at least this many percent since the previous check. */
  changePercent?: number;
}

export type StockState = 'in' | 'out';

/** What a check read beside the text: one number (or null) per condition, the stock state (restock). */
export interface Observed {
  values: Array<number | null>;
  stock: StockState | null;
}

export interface WatchFilters {
  includeSelectors: string[];
  ignoreSelectors: string[];
  ignoreText: string[];
  ignorePatterns: IgnorePattern[];
  triggerText: string[];
  blockText: string[];
  onlyNewLines: boolean;
  changes: ChangeMode;
  conditions: Condition[];
  restock: boolean;
}

export const DEFAULT_FILTERS: WatchFilters = {
  includeSelectors: [],
  ignoreSelectors: [],
  ignoreText: [],
  ignorePatterns: [...IGNORE_PATTERNS],
  triggerText: [],
  blockText: [],
  onlyNewLines: false,
  changes: 'any',
  conditions: [],
  restock: false,
};

/** Conditions stored as JSON in snake_case, as the API shows them. */
export const conditionToJson = (c: Condition) => ({
  selector: c.selector,
  ...(c.below !== undefined ? { below: c.below } : {}),
  ...(c.above !== undefined ? { above: c.above } : {}),
  ...(c.changePercent !== undefined ? { change_percent: c.changePercent } : {}),
});

export function conditionFromJson(raw: { selector: string; below?: number; above?: number; change_percent?: number }): Condition {
  return {
    selector: raw.selector,
    ...(raw.below !== undefined ? { below: raw.below } : {}),
    ...(raw.above !== undefined ? { above: raw.above } : {}),
    ...(raw.change_percent !== undefined ? { changePercent: raw.change_percent } : {}),
  };
}
