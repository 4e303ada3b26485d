/**
 * The comparable form: noise that changes on every load never counts (tokens, tracking and session
 * parameters, parameter order, clocks, counters, whitespace, ignored lines); real edits do.
 * Comparison: the line diff, links added and removed, and the summary sentence.
 */
import { expect, test } from 'bun:test';
import { compare } from './compare.ts';
import { containsPattern, isToken, normaliseContent, normaliseUrl } from './normalise.ts';
import { comparableOf, linksInText } from './page.ts';

const same = (a: string, b: string, ignoreText: string[] = []) => normaliseContent(a, { ignoreText }) === normaliseContent(b, { ignoreText });

test('tracking, cache-busting and session parameters are dropped and the rest sorted', () => {
  expect(normaliseUrl('https://ex.com/p?b=2&a=1&utm_source=x&fbclid=y#top')).toBe('https://ex.com/p?a=1&b=2');
  expect(normaliseUrl('https://ex.com/p?a=1&csrf_token=abc&sid=9&_=1700000000')).toBe('https://ex.com/p?a=1');
  expect(normaliseUrl('https://ex.com/p?realestate=1')).toBe('https://ex.com/p?realestate=1');
  expect(same('[Shop](https://ex.com/s?color=red&size=m)', '[Shop](https://ex.com/s?size=m&color=red)')).toBe(true);
  expect(same('[Shop](https://ex.com/s?color=red)', '[Shop](https://ex.com/s?color=blue)')).toBe(false);
});

test('tokens are masked; slugs and words are not', () => {
  expect(isToken('f3a9c2d1e4b5a6978877')).toBe(true);
  expect(isToken('123e4567-e89b-12d3-a456-426614174000')).toBe(true);
  expect(isToken('eyJhbGciOiJIUzI1NiJ9x')).toBe(true);
  expect(isToken('state-of-the-art-design-2024')).toBe(false);
  expect(isToken('internationalisation')).toBe(false);
  expect(same('Request id: 9f8e7d6c5b4a39281706', 'Request id: 0a1b2c3d4e5f60718293')).toBe(true);
});

test('clocks, relative ages and counters are masked; calendar dates count', () => {
  expect(same('Updated 10:42:07 — 5 minutes ago', 'Updated 11:03:55 — 2 hours ago')).toBe(true);
  expect(same('Generated 2026-11-25T00:40:12Z', 'Generated 2026-11-25T00:41:59.123Z')).toBe(true);
  expect(same('1,204 views · 37 comments', '1,311 views · 41 comments')).toBe(true);
  expect(same('Event on March 5, 2026', 'Event on March 6, 2026')).toBe(false);
  expect(same('Price: 12 EUR', 'Price: 14 EUR')).toBe(false);
});

test('whitespace and blank lines do not count; ignore_text drops matching lines', () => {
  expect(same('# Title\n\n  Some   text\t here ', '# Title\nSome text here\n\n\n')).toBe(true);
  expect(same('Stock: 4 left\nBody', 'Stock: 9 left\nBody', ['stock: * left'])).toBe(true);
  expect(same('Stock: 4 left\nBody', 'Stock: 9 left\nBody changed', ['stock: * left'])).toBe(false);
  expect(containsPattern('Visitors online now: 5', 'visitors*now')).toBe(true);
  expect(containsPattern('now Visitors', 'visitors*now')).toBe(false);
});

test('hostile content stays linear', () => {
  const started = performance.now();
  normaliseContent(`${'a-'.repeat(200_000)}\n${'1,'.repeat(200_000)}\n${'x'.repeat(400_000)}`, { ignoreText: ['*a*b*c*'] });
  expect(performance.now() - started).toBeLessThan(3000);
});

test('one edited sentence and an added link are changes with a summary, links and word delta', () => {
  const before = comparableOf({ markdown: '# News\n\nThe cat sat on the mat.\n\nSee [home](https://ex.com/).', wordCount: 8 });
  const after = comparableOf({ markdown: '# News\n\nThe dog sat on the mat.\n\nSee [home](https://ex.com/) and [more](https://ex.com/more).', wordCount: 10 });
  const result = compare(before, after);
  expect(result.changed).toBe(true);
  expect(result.added).toEqual(['The dog sat on the mat.', 'See [home](https://ex.com/) and [more](https://ex.com/more).']);
  expect(result.removed).toEqual(['The cat sat on the mat.', 'See [home](https://ex.com/).']);
  expect(result).toMatchObject({ linksAdded: 1, linksRemoved: 0, wordCountDelta: 2 });
  expect(result.unified).toContain('-The cat sat on the mat.');
  expect(result.unified).toContain('+The dog sat on the mat.');
  expect(result.summary).toBe('2 lines added and 2 removed; 1 link added. Now reads: “The dog sat on the mat.”');
  expect(result.parts.map((p) => p.type)).toEqual(['same', 'removed', 'added']);
  expect(compare(before, before)).toMatchObject({ changed: false, unified: '', added: [], removed: [], summary: 'No change.' });
});

test('texts too different to align within the limits count as replaced', () => {
  const a = comparableOf({ markdown: Array.from({ length: 300 }, (_, i) => `line a${i}`).join('\n'), wordCount: 600 });
  const b = comparableOf({ markdown: Array.from({ length: 300 }, (_, i) => `line b${i}`).join('\n'), wordCount: 600 });
  const result = compare(a, b, { maxEditLength: 10, timeoutMs: 1000 });
  expect(result.changed).toBe(true);
  expect(result.added.length).toBe(300);
  expect(result.removed.length).toBe(300);
});

test('links are read from markdown targets and bare URLs', () => {
  expect(linksInText('[a](https://x.com/1) and https://y.com/2 <https://z.com/3>')).toEqual(['https://x.com/1', 'https://y.com/2']);
});
