// The benchmarks' statistics: medians of even counts take the middle pair's mean.
import { expect, test } from 'bun:test';
import { median, quantile } from './stats.ts';

test('median of odd and even counts, and of none', () => {
  expect(median([3, 1, 2])).toBe(2);
  expect(median([147.6, 157.8])).toBeCloseTo(152.7, 6);
  expect(median([])).toBeNaN();
});

test('nearest-rank quantiles', () => {
  const values = Array.from({ length: 100 }, (_, i) => 100 - i);
  expect(quantile(values, 0.5)).toBe(51);
  expect(quantile(values, 0.99)).toBe(100);
  expect(quantile([], 0.9)).toBeNaN();
});
