// The llm pipeline's steps one by one, and the code protection they all rely on.
import { describe, expect, test } from 'bun:test';
import { mapProse } from './prose.ts';
import {
  asciiQuotes,
  collapseWhitespace,
  compactTables,
  dropEmptyLines,
  mergeStats,
  removeEmphasis,
  stripImages,
  unescapeMarkdown,
} from './text-steps.ts';
import { dedupeLinks, extractLinks, linksSection, shortenLinks } from './link-steps.ts';

describe('mapProse', () => {
  test('fenced blocks and code spans reach the step as placeholders and come back byte for byte', () => {
    const seen: string[] = [];
    const out = mapProse('a  _b_\n\n```js\nx  =  _y_\n```\n\nuse `a  _b_` here', (prose) => {
      seen.push(prose);
      return prose.replace(/ +/g, ' ').replace(/_/g, '');
    });
    expect(out).toBe('a b\n\n```js\nx  =  _y_\n```\n\nuse `a  _b_` here');
    expect(seen[0]).not.toContain('x  =');
  });

  test('an unclosed fence protects the rest; stray placeholder characters in the input are dropped', () => {
    expect(mapProse('p  q\n```\ncode  _x_', (p) => p.replace(/ +/g, ' '))).toBe('p q\n```\ncode  _x_');
    expect(mapProse('a\uE0000\uE001b', (p) => p)).toBe('ab');
  });
});

describe('text steps', () => {
  test('stripImages: plain, titled, escaped and linked images; the link keeps no image', () => {
    expect(
      stripImages('See ![A map](https://x.example/a_\\(1\\).png "Map") here. [![logo](https://x.example/l.png)](https://x.example/)'),
    ).toBe('See here. [](https://x.example/)');
    expect(stripImages('![a](https://x.example/a.png) Text starts here')).toBe('Text starts here');
    expect(stripImages('`![not an image](x)`')).toBe('`![not an image](x)`');
  });

  test('removeEmphasis: bold, italic, strikethrough; escaped markers and snake_case stay', () => {
    expect(removeEmphasis('**Bold** and _it_ and ~~old~~ and *star*')).toBe('Bold and it and old and star');
    expect(removeEmphasis('snake\\_case and 2 \\* 3 and a_b_c')).toBe('snake\\_case and 2 \\* 3 and a_b_c');
    expect(removeEmphasis('**one\n\ntwo**')).toBe('**one\n\ntwo**');
  });

  test('unescapeMarkdown drops backslash escapes but keeps escaped pipes', () => {
    expect(unescapeMarkdown('snake\\_case \\[1\\] 1\\. \\*x\\* a \\| b C:\\\\dir')).toBe('snake_case [1] 1. *x* a \\| b C:\\dir');
  });

  test('compactTables: no rule row, no outer pipes', () => {
    expect(compactTables('| Year | GWh |\n| --- | :---: |\n| 2024 | 41 |\n\nnot | a table')).toBe('Year | GWh\n2024 | 41\n\nnot | a table');
  });

  test('asciiQuotes: curly quotes and primes become ASCII; guillemets stay', () => {
    expect(asciiQuotes('don’t “quote” ‘x’ 5′ «bien»')).toBe("don't \"quote\" 'x' 5' «bien»");
  });

  test('dropEmptyLines: wordless lines go, numbers and emoji stay', () => {
    expect(dropEmptyLines('# \n- \n---\n| | |\n> \n…\nreal\n42\n👍\n\nend')).toBe('real\n42\n👍\n\nend');
  });

  test('mergeStats: figure + caption pairs become one line; sentences and lists are left alone', () => {
    expect(mergeStats('Intro.\n\n12.5k\n\nStars\n\n340\n\nForks\n\n98%\n\nUptime\n\nMore text.')).toBe(
      'Intro.\n\n12.5k Stars, 340 Forks, 98% Uptime\n\nMore text.',
    );
    expect(mergeStats('Price:\n\n$1,299\n\nDone')).toBe('Price: $1,299\n\nDone');
    expect(mergeStats('2024\n\nThe year we shipped a lot of things.')).toBe('2024\n\nThe year we shipped a lot of things.');
    expect(mergeStats('12\n\n- Stars')).toBe('12\n\n- Stars');
  });

  test('collapseWhitespace: odd spaces, runs and blank runs; indentation stays', () => {
    expect(collapseWhitespace('\n a\u00a0\u00a0b\u3000c   d  \n\n\n\n  - nested   item\t\n\nend\n\n')).toBe(
      'a b c d\n\n  - nested item\n\nend',
    );
  });
});

describe('link steps', () => {
  const page = 'https://www.example.com/docs/intro';

  test('extractLinks: inline links become text; targets collected in order, escapes undone', () => {
    const { body, links } = extractLinks(
      'Read [the \\[guide\\]](https://www.example.com/docs/guide "Guide") and [API](<https://api.example.com/a b>) or [x](https://x.example/a\\(1\\)). ![i](https://x.example/i.png)',
    );
    expect(body).toBe('Read the \\[guide\\] and API or x. ![i](https://x.example/i.png)');
    expect(links).toEqual([
      { text: 'the \\[guide\\]', url: 'https://www.example.com/docs/guide' },
      { text: 'API', url: 'https://api.example.com/a b' },
      { text: 'x', url: 'https://x.example/a(1)' },
    ]);
  });

  test('dedupeLinks: each target once, no in-page jumps, no text-less links', () => {
    expect(
      dedupeLinks(
        [
          { text: 'Guide', url: 'https://www.example.com/docs/guide' },
          { text: 'the guide', url: 'https://www.example.com/docs/guide#top' },
          { text: 'Back to top', url: 'https://www.example.com/docs/intro#top' },
          { text: '', url: 'https://www.example.com/shop' },
          { text: 'Shop', url: 'https://www.example.com/shop' },
        ],
        page,
      ),
    ).toEqual([
      { text: 'Guide', url: 'https://www.example.com/docs/guide' },
      { text: 'Shop', url: 'https://www.example.com/shop' },
    ]);
  });

  test('shortenLinks: same-origin targets become paths; other origins stay whole', () => {
    expect(
      shortenLinks(
        [
          { text: 'a', url: 'https://www.example.com/x?q=1' },
          { text: 'b', url: 'https://example.com/y' },
          { text: 'c', url: 'http://www.example.com/z' },
        ],
        page,
      ),
    ).toEqual([
      { text: 'a', url: '/x?q=1' },
      { text: 'b', url: 'https://example.com/y' },
      { text: 'c', url: 'http://www.example.com/z' },
    ]);
    expect(shortenLinks([{ text: 'a', url: '/x' }], 'not a url')).toEqual([{ text: 'a', url: '/x' }]);
  });

  test('linksSection: one line per link; nothing without links', () => {
    expect(
      linksSection([
        { text: 'Guide', url: '/g' },
        { text: 'https://x.example/', url: 'https://x.example/' },
      ]),
    ).toBe('Links:\nGuide: /g\nhttps://x.example/');
    expect(linksSection([])).toBe('');
  });
});
