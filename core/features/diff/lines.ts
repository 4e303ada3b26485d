/**
 * The one line alignment a comparison makes (compare.ts), bounded by a deadline. Lines unique to
 * both versions anchor it first (their longest increasing run, O(n log n)), so a page with many
 * small edits spread over it costs little; the stretches between anchors are aligned by Myers'
 * algorithm (`diff-sequences`) while time is left, and a stretch still open at the deadline counts
 * as replaced. Myers alone is O(n·d): 20,000 lines with thousands of scattered edits took seconds.
 */
import diffSequences from 'diff-sequences';

/** Thrown inside diff-sequences' comparison callback to stop it at the deadline. */
const OUT_OF_TIME = Symbol('out of time');

/** Indices of `a` and `b` whose lines are the same, both increasing. */
export type Matches = Array<[number, number]>;

/** Positions of the longest run of pairs increasing in both sides (patience sorting). */
function increasingRun(pairs: Array<[number, number]>): Array<[number, number]> {
  const tails: number[] = [];
  const back = new Int32Array(pairs.length).fill(-1);
  for (let k = 0; k < pairs.length; k++) {
    const j = pairs[k]![1];
    let [lo, hi] = [0, tails.length];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]!]![1] < j) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) back[k] = tails[lo - 1]!;
    tails[lo] = k;
  }
  const run: Array<[number, number]> = [];
  for (let k = tails.length ? tails[tails.length - 1]! : -1; k >= 0; k = back[k]!) run.push(pairs[k]!);
  return run.reverse();
}

/** Lines that occur once in a[a0..a1) and once in b[b0..b1), in a's order. */
function uniquePairs(a: readonly string[], b: readonly string[], a0: number, a1: number, b0: number, b1: number): Array<[number, number]> {
  const seen = new Map<string, [number, number, number]>(); // count in a, count in b, index in b
  for (let i = a0; i < a1; i++) {
    const entry = seen.get(a[i]!);
    if (entry) entry[0]++;
    else seen.set(a[i]!, [1, 0, -1]);
  }
  for (let j = b0; j < b1; j++) {
    const entry = seen.get(b[j]!);
    if (entry) {
      entry[1]++;
      entry[2] = j;
    }
  }
  const pairs: Array<[number, number]> = [];
  for (let i = a0; i < a1; i++) {
    const entry = seen.get(a[i]!)!;
    if (entry[0] === 1 && entry[1] === 1) pairs.push([i, entry[2]]);
  }
  return pairs;
}

/** Myers on one stretch; false when the deadline came first (nothing of it is matched then). */
function myers(
  a: readonly string[],
  b: readonly string[],
  a0: number,
  a1: number,
  b0: number,
  b1: number,
  deadline: number,
  out: Matches,
): boolean {
  if (a0 >= a1 || b0 >= b1) return true;
  const found: Matches = [];
  let calls = 0;
  try {
    diffSequences(
      a1 - a0,
      b1 - b0,
      (i, j) => {
        if (++calls % 4096 === 0 && performance.now() > deadline) throw OUT_OF_TIME;
        return a[a0 + i] === b[b0 + j];
      },
      (n, i, j) => {
        for (let k = 0; k < n; k++) found.push([a0 + i + k, b0 + j + k]);
      },
    );
  } catch (err) {
    if (err === OUT_OF_TIME) return false;
    throw err;
  }
  out.push(...found);
  return true;
}

/** The matched lines of `a` and `b`: anchors, then Myers between them until `deadline` (performance.now()). */
export function matchLines(a: readonly string[], b: readonly string[], deadline: number): Matches {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const matches: Matches = [];
  for (let k = 0; k < start; k++) matches.push([k, k]);
  const anchors = increasingRun(uniquePairs(a, b, start, endA, start, endB));
  let [i, j] = [start, start];
  for (const [ai, bj] of [...anchors, [endA, endB] as [number, number]]) {
    myers(a, b, i, ai, j, bj, deadline, matches);
    if (ai < endA) matches.push([ai, bj]);
    [i, j] = [ai + 1, bj + 1];
  }
  for (let k = 0; k < a.length - endA; k++) matches.push([endA + k, endB + k]);
  return matches;
}
