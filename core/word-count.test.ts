import { expect, test } from 'bun:test';
import { countWords, parseHtmlDocument, textOf, wordCountOf } from './dom.ts';
import { WordCounter } from './word-count.ts';

const streamed = (...pieces: string[]) => {
  const counter = new WordCounter();
  pieces.forEach((piece, i) => {
    if (i) counter.gap();
    counter.feed(piece);
  });
  return counter.count;
};

test('the streamed count finds the words countWords finds: joiners, non-Latin scripts, astral letters, lone surrogates', () => {
  const samples = [
    'a-b',
    'a--b',
    '-a-',
    "it's o’clock",
    "x'-y",
    "''a''b",
    'a_b',
    '日本語 テキスト',
    '٣٤ ١',
    'a\u0301b',
    'é-è',
    '𝐀𝐁 c',
    'ab\ud835\udc00cd',
    '\ud835 x',
    'Ⅻ x',
    'a‐b',
    '',
  ];
  for (const s of samples) expect([s, streamed(s)]).toEqual([s, countWords(s)]);
  const alphabet = ['a', 'Z', '9', '_', '-', "'", '’', ' ', '\n', 'é', '日', '\u0301', '𝐀', '\ud835', '.', '٣'];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 5000; i++) {
    let s = '';
    for (let n = Math.floor(next() * 12); n > 0; n--) s += alphabet[Math.floor(next() * alphabet.length)];
    expect([s, streamed(s)]).toEqual([s, countWords(s)]);
  }
});

test('a word goes on across text pieces, a gap ends it', () => {
  const counter = new WordCounter();
  counter.feed('wo');
  counter.feed("rd's-");
  counter.feed('end');
  expect(counter.count).toBe(1);
  expect(streamed('one', 'two')).toBe(2);
  expect(streamed('one-', 'two')).toBe(2);
});

test("an element's count follows textOf's blocks: inline text joins, blocks and cells part, pre is read whole, scripts are not read", () => {
  const dom = parseHtmlDocument(
    '<div>in<b>line</b><p>para</p>graph<table><tr><td>a<td>b</table><pre>x<span>y</span> z</pre><script>var not = counted</script><ul><li>it<li>em</ul></div>',
  );
  const div = dom.querySelector('div')!;
  expect(wordCountOf(div)).toBe(countWords(textOf(div)));
  expect(wordCountOf(div)).toBe(9);
  expect(wordCountOf(dom.querySelector('script')!)).toBe(0);
  expect(wordCountOf(dom.querySelector('pre')!)).toBe(2);
});
