// Hostile nesting: thousands of levels convert without overflowing turndown's recursion, real pages are untouched.
import { describe, expect, test } from 'bun:test';
import { parseHtmlFragment } from '../../../core/kit.ts';
import { limitDepth, MAX_MARKDOWN_DEPTH } from './depth.ts';
import { createTurndown, elementToMarkdown } from './markdown.ts';

const nested = (open: string, close: string, depth: number, inner: string) =>
  parseHtmlFragment(open.repeat(depth) + inner + close.repeat(depth));
const INNER = '<p>Deep <a href="https://x.example/">text</a>.</p><p>Second paragraph.</p>';

describe('limitDepth', () => {
  test('a shallow element is returned as it is, not copied', () => {
    const root = nested('<div>', '</div>', 20, INNER);
    expect(limitDepth(root)).toBe(root);
  });

  test('deep content is flattened to its paragraphs in a copy; the original stays as it was', () => {
    const root = nested('<div>', '</div>', 300, INNER);
    const before = root.innerHTML.length;
    const limited = limitDepth(root, 50);
    expect(limited).not.toBe(root);
    expect(root.innerHTML.length).toBe(before);
    expect(limited.textContent).toBe('Deep text.Second paragraph.');
    expect(limited.querySelectorAll('a')).toHaveLength(0);
  });

  test('inside tables the paragraphs land in a cell, where table rendering finds them', () => {
    const md = elementToMarkdown(createTurndown(), nested('<table><tr><td>', '</td></tr></table>', 200, INNER));
    expect(md).toBe('Deep text.\n\nSecond paragraph.');
  });
});

describe('markdown of 10,000 levels', () => {
  const service = createTurndown();
  for (const [name, open, close] of [
    ['div', '<div>', '</div>'],
    ['blockquote', '<blockquote>', '</blockquote>'],
    ['list', '<ul><li>', '</li></ul>'],
    ['unclosed span', '<span>', ''],
  ] as const) {
    test(name, () => {
      const md = elementToMarkdown(service, nested(open, close, 10_000, INNER));
      expect(md).toContain('Deep text.');
      expect(md).toContain('Second paragraph.');
    });
  }

  test('the limit is far above real pages (54 levels at most on the dev set) and far below the stack limit', () => {
    expect(MAX_MARKDOWN_DEPTH).toBeGreaterThanOrEqual(100);
    expect(elementToMarkdown(service, nested('<div>', '</div>', MAX_MARKDOWN_DEPTH - 2, INNER))).toBe(
      'Deep [text](https://x.example/).\n\nSecond paragraph.',
    );
  });
});
