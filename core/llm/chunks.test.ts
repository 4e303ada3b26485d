// Splitting a page's text to fit a model's context, and merging what the parts yielded.
import { describe, expect, test } from 'bun:test';
import { mergeParts, pageParts, splitText } from './chunks.ts';

/** One token a word: easy to reason about. */
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe('splitText', () => {
  const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} ${'word '.repeat(20).trim()}.`).join('\n\n');

  test('parts stay within the budget, keep paragraphs whole and lose no text', () => {
    const { parts, cut } = splitText(paragraphs, 100, words, 100);
    expect(cut).toBe(false);
    expect(parts.length).toBeGreaterThan(5);
    for (const part of parts) expect(words(part)).toBeLessThanOrEqual(100);
    expect(parts.join('\n\n')).toBe(paragraphs);
    expect(parts.every((p) => /^Paragraph \d+ /.test(p))).toBe(true);
  });

  test('a paragraph longer than the budget is split at lines, then words', () => {
    const long = 'w '.repeat(1000).trim();
    const { parts } = splitText(long, 300, words, 100);
    expect(parts.map(words)).toEqual([300, 300, 300, 100]);
    expect(parts.join(' ')).toBe(long);
  });

  test('at most maxParts; the rest is reported cut', () => {
    const { parts, cut } = splitText(paragraphs, 100, words, 2);
    expect(parts).toHaveLength(2);
    expect(cut).toBe(true);
  });

  test('a text that fits is one part, counted or not', () => {
    expect(
      splitText(
        'short text',
        1000,
        () => {
          throw new Error('no need to count');
        },
        4,
      ),
    ).toEqual({ parts: ['short text'], cut: false });
  });
});

describe('pageParts', () => {
  test('every part carries the page header', () => {
    const text = `URL: https://example.com/\nTitle: Example\n\n${Array.from({ length: 10 }, (_, i) => `Item ${i} ${'x '.repeat(30)}`).join('\n\n')}`;
    const { parts } = pageParts(text, 120, words, 10);
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts) {
      expect(part).toStartWith('URL: https://example.com/\nTitle: Example\n\nItem ');
      expect(words(part)).toBeLessThanOrEqual(120);
    }
  });
});

describe('mergeParts', () => {
  test('arrays joined (a repeat kept once), objects merged key by key, scalars from the first part that has one', () => {
    expect(
      mergeParts([
        { title: 'Catalogue', price: null, items: [{ name: 'A' }, { name: 'B' }], meta: { page: 1, author: '' } },
        { title: 'Catalogue (continued)', price: 12, items: [{ name: 'B' }, { name: 'C' }], meta: { author: 'Ann' } },
        { items: [], extra: true },
      ]),
    ).toEqual({
      title: 'Catalogue',
      price: 12,
      items: [{ name: 'A' }, { name: 'B' }, { name: 'C' }],
      meta: { page: 1, author: 'Ann' },
      extra: true,
    });
  });

  test('nothing found anywhere stays empty; one part is itself', () => {
    expect(mergeParts([{ price: null }, { price: null }])).toEqual({ price: null });
    expect(mergeParts([[], []])).toEqual([]);
    expect(mergeParts([{ a: 1 }])).toEqual({ a: 1 });
  });
});
