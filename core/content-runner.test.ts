import { expect, test } from 'bun:test';
import { FairOrder } from './content-runner.ts';

test('a burst of one workspace keeps its order, and another workspace goes ahead of its tail', () => {
  const fair = new FairOrder(1000);
  const burst = [0, 1, 2, 3].map(() => fair.next('busy', 100));
  expect(burst).toEqual([100, 1100, 2100, 3100]);
  const other = fair.next('quiet', 150);
  expect(other).toBe(150);
  expect(burst.filter((order) => order < other)).toEqual([100]);
  // An idle workspace starts from the present again.
  expect(fair.next('busy', 10_000)).toBe(10_000);
});
