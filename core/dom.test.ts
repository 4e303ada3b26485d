// The DOM layer beyond the conformance suite (test/conformance): element budget, fragment parsing
// in context, deep nesting, linkedom's view of the tree, and the tokenizer patch's equivalence.
import { describe, expect, test } from 'bun:test';
import { parse, serialize } from 'parse5';
import { parseHtmlChildren, parseHtmlDocument, parseHtmlPage, textOf, wordCountOf, countWords } from './dom.ts';

describe('parseHtmlDocument', () => {
  test('builds what linkedom callers read: upper-case tagName, raw attribute values, body and head getters', () => {
    const dom = parseHtmlDocument('<title>T</title><p class="a  b" data-x="1 &amp; 2">One<p>Two');
    expect(dom.head.innerHTML).toBe('<title>T</title>');
    // Attribute values are written back escaped (& < > and quotes), so the HTML reads back the same.
    expect(dom.body.innerHTML).toBe('<p class="a  b" data-x="1 &amp; 2">One</p><p>Two</p>');
    expect(parseHtmlDocument(dom.body.innerHTML).body.firstElementChild?.getAttribute('data-x')).toBe('1 & 2');
    const p = dom.querySelector('p')!;
    expect(p.tagName).toBe('P');
    expect(p.getAttributeNode('data-x')!.value).toBe('1 & 2');
    expect(p.classList.contains('b')).toBe(true);
    expect(dom.querySelectorAll('p').length).toBe(2);
  });

  test('svg keeps its case and namespace; template content stays out of queries', () => {
    const dom = parseHtmlDocument(
      '<svg viewBox="0 0 1 1"><foreignObject><p>in svg</p></foreignObject></svg><template><p>later</p></template><math><mi>x</mi></math>',
    );
    const fo = dom.querySelector('svg')!.firstElementChild!;
    expect(fo.localName).toBe('foreignObject');
    expect(fo.namespaceURI).toBe('http://www.w3.org/2000/svg');
    expect(dom.querySelector('mi')!.namespaceURI).toBe('http://www.w3.org/1998/Math/MathML');
    expect([...dom.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['in svg']);
    expect(dom.querySelector('template')!.innerHTML).toBe('<p>later</p>');
  });

  test('100,000 levels of nesting parse, and read, without overflowing the stack', () => {
    const dom = parseHtmlDocument(`${'<div>'.repeat(100_000)}bottom`);
    expect(textOf(dom.body)).toBe('bottom');
  });

  test('the element budget stops the parse and keeps what was built', () => {
    // each paragraph reopens every <b> before it: n tags make n(n+1)/2 elements
    const html = Array.from({ length: 50 }, (_, i) => `<p><b id=${i}>x`).join('');
    const whole = parseHtmlPage(html);
    expect(whole.complete).toBe(true);
    expect(whole.dom.querySelectorAll('b').length).toBe((50 * 51) / 2);
    const cut = parseHtmlPage(html, { maxElements: 500 });
    expect(cut).toMatchObject({ complete: false, limit: 500 });
    expect(cut.dom.querySelectorAll('*').length).toBe(500);
    expect(cut.dom.body.textContent!.startsWith('xxx')).toBe(true);
    // by default no parse builds more than two elements per character of markup
    const long = Array.from({ length: 400 }, (_, i) => `<p><b id=${i}>x`).join('');
    expect(parseHtmlPage(long)).toMatchObject({ complete: false, limit: 2 * long.length + 64 });
  });
});

describe('parseHtmlChildren', () => {
  test('parses in the context element, into its document', () => {
    const dom = parseHtmlDocument('<table><tbody id="t"></tbody></table>');
    const rows = parseHtmlChildren(dom.getElementById('t')!, '<tr><td>a<td>b');
    expect(rows.firstElementChild!.outerHTML).toBe('<tr><td>a</td><td>b</td></tr>');
    expect(rows.firstElementChild!.ownerDocument).toBe(dom);
  });

  test('noscript content: raw text with scripting on, markup as a browser without scripts shows it with scripting off', () => {
    const dom = parseHtmlDocument('<noscript><p>Posts <b>here</b></p></noscript>');
    const noscript = dom.querySelector('noscript')!;
    expect(noscript.firstElementChild).toBeNull();
    expect(noscript.textContent).toBe('<p>Posts <b>here</b></p>');
    const content = parseHtmlChildren(noscript, noscript.textContent!, { scripting: false });
    expect(content.firstElementChild!.outerHTML).toBe('<p>Posts <b>here</b></p>');
  });
});

test('the word count of textOf, without collapsing whitespace', () => {
  const dom = parseHtmlDocument('<p>one\u00a0two  <b>three</b>four</p><pre> five\n six </pre><table><tr><td>seven<td>eight</table>');
  expect(wordCountOf(dom.body)).toBe(countWords(textOf(dom.body)));
  expect(wordCountOf(dom.body)).toBe(7);
});

describe('the tokenizer patch (patches/parse5@8.1.1.patch)', () => {
  // Error reporting turns the plain-run path off: the same input through both paths must give the same tree.
  const both = (html: string) => [serialize(parse(html)), serialize(parse(html, { onParseError: () => {} }))];

  test('the same tree as the character-by-character loop on inputs that stress its stops', () => {
    const pieces = [
      '<p>',
      '</p>',
      'plain text',
      ' ',
      '\t',
      '\n',
      '\r\n',
      '\r',
      '\u0000',
      '&amp;',
      '&ampx',
      '&#x26;',
      '<b class="a b">',
      '</b>',
      "<i title='x&quot;y'>",
      '<!-- c - d -->',
      '<!--->',
      '<script>if (a < b) x = "</scr" + "ipt>";</script>',
      '<style>p{}</style>',
      '<textarea>a &lt; b</textarea>',
      '<title>T&amp;</title>',
      '<xmp><b></xmp>',
      '😀',
      '\ud800',
      'é',
      '<table>x<tr><td>y',
      '<svg><title>s</title></svg>',
      '<pre>\nline</pre>',
      '<a href="?a=1&b=2">',
      // where whitespace and other text join one token (body, cell, caption, template, select) and where not
      'two words',
      ' \n x',
      '<select><option>a b',
      '<table><caption>c d',
      '<template>t u',
      '<frameset>',
      '<listing>\n  x',
      '<textarea>\nz',
      '<math>m n',
      '&lt; &gt;',
      '<table> \t y',
      // tag and attribute names: upper case lowered, names ended by = / > quotes and whitespace
      '<DIV CLASS=X data-Yz="w">',
      '<P\tID=a\nLang=EN>',
      '<img src=x/>',
      '<Svg viewBox="0 0 1 1"><foreignObject>',
      '<x-Élan ÅB=1>',
      '<a b<c="d">',
      "<q e'f=g>",
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 1000; i++) {
      const html = Array.from({ length: 3 + Math.floor(next() * 25) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      const [fast, slow] = both(html);
      expect(fast, html).toBe(slow);
    }
  });
});
