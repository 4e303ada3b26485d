import { describe, expect, test } from 'bun:test';
import { isDateOnly } from './date-words.ts';

describe('isDateOnly', () => {
  test('datelines as pages print them', () => {
    for (const line of [
      'Thursday, October 25, 2012 at 9:15AM',
      'PUBLISHED: 5 March 2024 | 10:00 GMT',
      '2012-11-08',
      '09/18/2012',
      'Nov 01 2012',
      '13 November 2012 - 2:00pm',
      'October 25th, 2012',
    ])
      expect(isDateOnly(line)).toBe(true);
  });

  test('a month name alone, a sentence with a date, ambiguous short dates and runs of digits are not', () => {
    for (const line of [
      'May',
      'May the lamp burn all night',
      'On January 4, 2012 the storm broke',
      '11.08.12',
      '2012',
      `${'1'.repeat(100)}x`,
    ])
      expect(isDateOnly(line)).toBe(false);
  });
});
