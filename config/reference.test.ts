/** docs/configuration.md's settings reference says what config/default.toml says (config/reference.ts). */
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { DEFAULTS_PATH, PAGE_PATH, parseDefaults, regeneratedPage, renderReference } from './reference.ts';

test('the reference in docs/configuration.md is current: run `bun config/reference.ts` after changing default.toml', () => {
  const page = readFileSync(PAGE_PATH, 'utf8');
  expect(regeneratedPage(page, readFileSync(DEFAULTS_PATH, 'utf8')) === page).toBe(true);
});

test('settings, their defaults, unset examples, continued comments and comment blocks are all read', () => {
  const toml = [
    '# A file comment.',
    'mode = "self-hosted"          # or TRAWL_MODE',
    '',
    '[fetch]                       # fetching pages',
    'maxRedirects = 10',
    'userAgent = "Bot # 1"         # the # inside the string stays',
    'main-content = true           # keeps the main content;',
    '                              # and types the page',
    '# Pools, by name.',
    '# proxy = "http://p:3128"     # a default proxy | or none',
    '# [fetch.proxies.office]',
    '# rotation = "sticky"',
  ].join('\n');
  const sections = parseDefaults(toml);
  expect(sections.map((s) => s.name)).toEqual(['', 'fetch', 'fetch.proxies.office']);
  expect(sections[1]!.comment).toBe('fetching pages');
  expect(sections[1]!.blocks).toEqual([
    {
      kind: 'rows',
      rows: [
        { key: 'maxRedirects', value: '10', comment: '', unset: false },
        { key: 'userAgent', value: '"Bot # 1"', comment: 'the # inside the string stays', unset: false },
        { key: 'main-content', value: 'true', comment: 'keeps the main content; and types the page', unset: false },
      ],
    },
    { kind: 'text', text: ['Pools, by name.'] },
    { kind: 'rows', rows: [{ key: 'proxy', value: '"http://p:3128"', comment: 'a default proxy | or none', unset: true }] },
  ]);
  const page = renderReference(sections);
  expect(page).toContain('| `proxy` | unset (e.g. `"http://p:3128"`) | a default proxy \\| or none |');
  expect(page).toContain('### `[fetch.proxies.office]`\n\n(example, commented out)');
});
