import { expect, test } from 'bun:test';
import { scanStrings } from './strings.ts';

const scan = (text: string, maxHits = 100) =>
  scanStrings({ type: 'javascript', text, name: 'x.js', pageUrl: 'https://site.test/' }, maxHits);

test('reads request positions from what precedes a string, literals elsewhere, template placeholders as {name}', () => {
  const { hits } = scan(
    [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the scanner's input is JavaScript source
      '<% not js %> fetch("/api/a") ### x.open(\'POST\', "/api/b") @@@ new WebSocket(`wss://${host}/live`)',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the scanner's input is JavaScript source
      'n.get(\'/api/c\') {url: "/about"} apiEndpoint = "/api/d" "https:\\/\\/api.site.test\\/v1" "text with /api/e inside" `/api/items/${item.id}`',
    ].join('\n'),
  );
  expect(hits.map((h) => `${h.line} ${h.position} ${h.api ?? '-'} ${h.value}`)).toEqual([
    '1 request fetch /api/a',
    '1 request xhr /api/b',
    '1 request websocket wss://{host}/live',
    '2 request client /api/c',
    '2 option client /about',
    '2 request client /api/d',
    '2 literal - https://api.site.test/v1',
    '2 literal - /api/items/{id}',
  ]);
});

test('stops at maxHits with a warning', () => {
  const result = scan(Array.from({ length: 10 }, (_, i) => `"/api/${i}"`).join(';'), 3);
  expect(result.hits).toHaveLength(3);
  expect(result.warnings).toEqual(['stopped after 3 values']);
});
