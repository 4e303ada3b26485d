// turndown's per-tag rule lookup (rule-lookup.ts): the rule turndown itself would pick, rules added later included.
import { expect, test } from 'bun:test';
import TurndownService from 'turndown';
import { parseHtmlFragment } from '../../../core/kit.ts';
import { fastRuleLookup } from './rule-lookup.ts';

const convert = (service: TurndownService, html: string) => service.turndown(parseHtmlFragment(html) as HTMLElement);

/** A service with rules of every filter kind: a tag, a list of tags, a function, kept and removed tags. */
function service(): TurndownService {
  const s = new TurndownService();
  s.addRule('mark', { filter: 'mark', replacement: (content) => `==${content}==` });
  s.addRule('small', { filter: ['small', 'sub'], replacement: (content) => `(${content})` });
  s.addRule('dataSpan', {
    filter: (node) => node.nodeName === 'SPAN' && node.hasAttribute('data-x'),
    replacement: (content) => `{${content}}`,
  });
  s.keep(['kbd']);
  s.remove('del');
  return s;
}

const PAGE =
  '<p><mark>m</mark> <small>s</small> <sub>b</sub> <span data-x>x</span> <span>plain</span> <kbd>k</kbd> <del>gone</del> <em>e</em></p>';

test('each element gets the rule turndown picks by asking every rule', () => {
  const fast = service();
  fastRuleLookup(fast);
  const expected = convert(service(), PAGE);
  expect(expected).toBe('==m== (s) (b) {x} plain <kbd>k</kbd>  _e_');
  expect(convert(fast, PAGE)).toBe(expected);
});

test('rules added, kept or removed after a conversion apply to the next one, as turndown applies them', () => {
  const fast = service();
  fastRuleLookup(fast);
  const plain = service();
  expect(convert(fast, PAGE)).toContain('==m==');
  for (const s of [fast, plain]) {
    s.addRule('markAgain', { filter: 'mark', replacement: (content) => `!${content}!` });
    s.keep('span');
    // (turndown asks its rules before kept and removed tags: this one changes nothing)
    s.remove('em');
  }
  const now = convert(fast, PAGE);
  expect(now).toContain('!m!');
  expect(now).toContain('<span>plain</span>');
  expect(now).toBe(convert(plain, PAGE));
});
