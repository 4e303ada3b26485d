// turndown's steps run in place (convert.ts): the markdown turndown itself gives, on markup that takes every branch.
import { expect, test } from 'bun:test';
import TurndownService from 'turndown';
import { parseHtmlFragment } from '../../../core/kit.ts';
import { createTurndown } from './markdown.ts';
import { turndownInPlace } from './convert.ts';

const MARKUP = [
  '<h2>Title *with* _marks_</h2><p>  Lead  text\twith\n spaces <b> bold </b>and<i>italic</i> <code>a_b</code> <a href="/x">link</a></p>',
  '<p>1. not a list</p><p>- not a bullet</p><p># not a heading</p><p>> not a quote</p><p>=equals</p><p>+ plus</p><p>[brackets] and \\ backslash</p>',
  '<div><span>  </span><span><img src="/i.png" alt="pic"></span><p> </p><a href="/only"></a><table><tr><td> </td></tr></table></div>',
  '<pre><code class="language-js">let x = 1;\n<!-- a comment -->  y</code></pre><p>after<br>break <wbr>word</p>',
  '<ul><li>one <em> two </em></li><li><p>para</p></li></ul><ol start="3"><li>three</li></ol><blockquote>quoted <s>gone</s></blockquote>',
  '<p>a<span> spaced </span>b <span> x</span> c<span>y </span>d</p><div>\u00a0nbsp\u00a0<b>\u00a0bold\u00a0</b></div><!-- top comment -->',
  '<table><thead><tr><th>H</th><th>I</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table><hr><p>~~~ tilde, = equals, +plus, `tick`</p>',
].join('');

test('the same markdown as turndown converting a copy, for the stock service and the content service', () => {
  for (const service of [new TurndownService(), createTurndown()]) {
    const expected = service.turndown(parseHtmlFragment(MARKUP) as HTMLElement);
    expect(expected).toContain('\\# not a heading');
    expect(expected).toContain('1\\. not a list');
    expect(turndownInPlace(service, parseHtmlFragment(MARKUP))).toBe(expected);
  }
});

test("a service's own escaper runs on every text", () => {
  const service = new TurndownService();
  service.escape = (text) => text.toUpperCase();
  expect(turndownInPlace(service, parseHtmlFragment('<p>plain words</p>'))).toBe('PLAIN WORDS');
});
