import { expect, test } from 'bun:test';
import { textOf } from '../../../core/kit.ts';
import { mainContentOf } from '../../../test/helpers/html-page.ts';

const para = (words: string, n = 3) =>
  Array.from(
    { length: n },
    (_, i) => `<p>${words} Sentence ${i + 1} goes on, with commas, clauses, and enough words to read like real prose.</p>`,
  ).join('\n');

test('closing disclosures go; a disclosure leading the text stays', () => {
  const html = `<html><head><title>Index funds explained</title></head><body><main><div class="article-body">
    <div class="rank-disclosure"><p>We rank funds by cost, tracking error and size, using data from public filings.</p></div>
    ${para('An index fund holds every stock of a market index.', 5)}
    <div id="disclosures"><div class="richtext--disclaimer">${para('All investing is subject to risk, including the loss of money.', 3)}</div></div>
  </div></main></body></html>`;
  const text = textOf(mainContentOf(html));
  for (const kept of ['holds every stock', 'We rank funds by cost']) expect(text).toContain(kept);
  expect(text).not.toContain('subject to risk');
});
