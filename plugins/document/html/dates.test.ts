// Publication date normalisation to ISO 8601.
import { expect, test } from 'bun:test';
import { normaliseDate } from './dates.ts';

test.each([
  ['2024-03-05', '2024-03-05'],
  ['20240305', '2024-03-05'],
  ['2024-03-05T09:15:00+01:00', '2024-03-05T08:15:00.000Z'],
  ['2024-03-05T09:15:00+0100', '2024-03-05T08:15:00.000Z'],
  ['2024-03-05T09:15:00.250Z', '2024-03-05T09:15:00.250Z'],
  ['2024-03-05 09:15', '2024-03-05T09:15:00.000Z'],
  ['2024-03-05T09:15:00-05', '2024-03-05T14:15:00.000Z'],
  ['Tue, 05 Mar 2024 10:00:00 GMT', '2024-03-05T10:00:00.000Z'],
  ['March 5, 2024', '2024-03-05'],
  ['5 March 2024', '2024-03-05'],
  ['March 5, 2024 10:30', '2024-03-05T10:30:00.000Z'],
])('%s → %s', (input, expected) => {
  expect(normaliseDate(input)).toBe(expected);
});

test.each(['', '   ', 'yesterday', '2024-02-30', '2024-13-01', 'not a date 12'])('rejects %p', (input) => {
  expect(normaliseDate(input)).toBeNull();
});

test('null and undefined are no date', () => {
  expect(normaliseDate(null)).toBeNull();
  expect(normaliseDate(undefined)).toBeNull();
});
