/**
 * The comparable form: noise that changes on every load never counts (tokens, tracking and session
 * parameters, parameter order, clocks, counters, whitespace, ignored lines); real edits do.
 * Comparison: the line diff, links added and removed, and the summary sentence.
 */
import { expect, test } from 'bun:test';
import { compare } from './compare.ts';
import { containsPattern, isToken, normaliseLines, normaliseUrl, type IgnorePattern } from './normalise.ts';
import { comparableOf, linksInText } from './page.ts';

const FETCHED = Date.parse('2026-11-25T00:41:00Z');
/** Whether two versions compare as unchanged; `a` fetched at `at`, `b` `later` ms after it. */
const same = (
  a: string,
  b: string,
  ignoreText: string[] = [],
  options: { at?: number; later?: number; patterns?: IgnorePattern[] } = {},
) => {
  const at = options.at ?? FETCHED;
  const rules = { ignoreText, ...(options.patterns ? { patterns: options.patterns } : {}) };
  return !compare(
    comparableOf({ markdown: a, wordCount: 0 }, rules, at),
    comparableOf({ markdown: b, wordCount: 0 }, rules, at + (options.later ?? 60_000)),
  ).changed;
};

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

test('a clock showing the fetch time, relative ages and counters are masked; calendar dates count', () => {
  // Fetched at 00:41 UTC and 00:42 UTC: the page shows its own time, in UTC or in UTC+1 or UTC+5:30.
  expect(same('Updated 00:41:07 — 5 minutes ago', 'Updated 00:42:55 — 2 hours ago')).toBe(true);
  expect(same('Local time 1:41 am', 'Local time 1:42 am')).toBe(true);
  expect(same('Mumbai 06:11', 'Mumbai 06:12')).toBe(true);
  expect(same('Generated 2026-11-25T00:40:12Z', 'Generated 2026-11-25T00:41:59.123Z')).toBe(true);
  expect(same('1,204 views · 37 comments', '1,311 views · 41 comments')).toBe(true);
  expect(same('Event on March 5, 2026', 'Event on March 6, 2026')).toBe(false);
  expect(same('Price: 12 EUR', 'Price: 14 EUR')).toBe(false);
});

test('times that are content always count: a timetable, opening hours, an old timestamp', () => {
  // Whatever the fetch time, a time of day that changed while the fetch time barely moved is content.
  for (let hour = 0; hour < 24; hour++) {
    const at = Date.parse(`2026-11-25T${String(hour).padStart(2, '0')}:10:00Z`);
    expect(same('| Leith | 09:12 |', '| Leith | 09:47 |', [], { at })).toBe(false);
  }
  // The departure near the fetch time stays as it was: no change, though one fetch sits next to it.
  expect(same('| Leith | 00:43 |', '| Leith | 00:43 |', [], { later: 3_600_000 })).toBe(true);
  expect(same('Opens 9:00 am', 'Opens 10:00 am')).toBe(false);
  expect(same('Generated 2026-11-20T00:40:12Z', 'Generated 2026-11-20T00:41:59Z')).toBe(false);
  // A clock a few minutes off the fetch in one version only is a change.
  expect(same('Updated 00:41', 'Updated 00:20')).toBe(false);
});

test('ignore_patterns switch presets off', () => {
  expect(same('1,204 views', '1,311 views', [], { patterns: [] })).toBe(false);
  expect(same('Updated 00:41', 'Updated 00:42', [], { patterns: ['counters'] })).toBe(false);
  expect(same('Updated 00:41', 'Updated 00:42', [], { patterns: ['clock'] })).toBe(true);
  expect(same('posted 5 minutes ago', 'posted 6 minutes ago', [], { patterns: ['clock', 'counters', 'tokens'] })).toBe(false);
  expect(same('Request id: 9f8e7d6c5b4a39281706', 'Request id: 0a1b2c3d4e5f60718293', [], { patterns: ['clock'] })).toBe(false);
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
  normaliseLines(
    `${'a-'.repeat(200_000)}\n${'1,'.repeat(200_000)}\n${'x'.repeat(400_000)}\n${'1:2'.repeat(100_000)}\n${'2026-01-01 '.repeat(40_000)}`,
    { ignoreText: ['*a*b*c*'] },
  );
  expect(performance.now() - started).toBeLessThan(3000);
});

test('one edited sentence and an added link are changes with a summary, links and word delta', () => {
  const before = comparableOf({ markdown: '# News\n\nThe cat sat on the mat.\n\nSee [home](https://ex.com/).', wordCount: 8 });
  const after = comparableOf({
    markdown: '# News\n\nThe dog sat on the mat.\n\nSee [home](https://ex.com/) and [more](https://ex.com/more).',
    wordCount: 10,
  });
  const result = compare(before, after);
  expect(result.changed).toBe(true);
  expect(result.added).toEqual(['The dog sat on the mat.', 'See [home](https://ex.com/) and [more](https://ex.com/more).']);
  expect(result.removed).toEqual(['The cat sat on the mat.', 'See [home](https://ex.com/).']);
  expect(result).toMatchObject({ linksAdded: 1, linksRemoved: 0, wordCountDelta: 2 });
  expect(result.unified).toContain('-The cat sat on the mat.');
  expect(result.unified).toContain('+The dog sat on the mat.');
  expect(result.unified).toStartWith('--- previous\n+++ current\n@@ -1,3 +1,3 @@\n # News\n');
  expect(result.summary).toBe('2 lines added and 2 removed; 1 link added. Now reads: “The dog sat on the mat.”');
  expect(result.parts.map((p) => p.type)).toEqual(['same', 'removed', 'added']);
  expect(result.lines[1]).toEqual({
    type: 'changed',
    old: 'The cat sat on the mat.',
    new: 'The dog sat on the mat.',
    words: [
      { type: 'same', text: 'The ' },
      { type: 'removed', text: 'cat' },
      { type: 'added', text: 'dog' },
      { type: 'same', text: ' sat on the mat.' },
    ],
  });
  const timetable = compare(
    comparableOf({ markdown: '| Leith | 09:12 |', wordCount: 3 }),
    comparableOf({ markdown: '| Leith | 09:47 |', wordCount: 3 }),
  );
  expect(timetable).toMatchObject({
    changed: true,
    excerpt: '09:12 → 09:47',
    added: ['| Leith | 09:47 |'],
    removed: ['| Leith | 09:12 |'],
  });
  expect(result.excerpt).toBe('cat → dog; [home](https://ex.com/). → [home](https://ex.com/) and [more](https://ex.com/more).');
  expect(compare(before, before)).toMatchObject({ changed: false, unified: '', added: [], removed: [], summary: 'No change.' });
});

test('texts too different to align within the limits count as replaced', () => {
  const a = comparableOf({ markdown: Array.from({ length: 300 }, (_, i) => `line a${i}`).join('\n'), wordCount: 600 });
  const b = comparableOf({ markdown: Array.from({ length: 300 }, (_, i) => `line b${i}`).join('\n'), wordCount: 600 });
  const result = compare(a, b, { timeoutMs: 1000 });
  expect(result.changed).toBe(true);
  expect(result.added.length).toBe(300);
  expect(result.removed.length).toBe(300);
});

test('links are read from markdown targets and bare URLs', () => {
  expect(linksInText('[a](https://x.com/1) and https://y.com/2 <https://z.com/3>')).toEqual(['https://x.com/1', 'https://y.com/2']);
});

test('scattered edits on a long page are aligned within the budget; none of it when the budget is spent', () => {
  const lines = Array.from({ length: 12_000 }, (_, i) => `Paragraph ${i} of the long page, ${(i * 7919) % 10007}.`);
  const a = comparableOf({ markdown: lines.join('\n'), wordCount: 1 });
  const b = comparableOf({ markdown: lines.map((l, i) => (i % 2 ? l : `${l} Edited`)).join('\n'), wordCount: 1 });
  const started = performance.now();
  const result = compare(a, b);
  expect(performance.now() - started).toBeLessThan(1000);
  expect(result.removed.length).toBe(500);
  expect(result.lines.filter((l) => l.type === 'changed').length).toBe(2500);
  expect(result.lines[1]).toMatchObject({ type: 'same' });
  // With no time at all, unique lines still anchor the alignment: only what lies between them is left unaligned.
  const rushed = compare(a, b, { timeoutMs: 0 });
  expect(rushed.lines[1]).toMatchObject({ type: 'same' });
  expect(rushed.lines[0]!.words).toBeUndefined();
});
