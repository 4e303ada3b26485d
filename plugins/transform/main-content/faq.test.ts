import { expect, test } from 'bun:test';
import { textOf } from '../../../core/kit.ts';
import { mainContentOf } from '../../../test/helpers/html-page.ts';

const para = (words: string, n = 3) =>
  Array.from(
    { length: n },
    (_, i) => `<p>${words} Sentence ${i + 1} goes on, with commas, clauses, and enough words to read like real prose.</p>`,
  ).join('\n');
const qa = (q: string) =>
  `<div class="accordion-item"><h3>${q}?</h3><div class="answer"><p>Short answer to ${q.toLowerCase()}, in a sentence or so.</p></div></div>`;

test('an FAQ section beside the article body is part of the content', () => {
  const html = `<html><head><title>Tuning queries</title></head><body><nav class="menu"><a href="/">Home</a> <a href="/blog">Blog</a></nav>
    <div class="blog-body"><div class="field-body">${para('Slow queries waste resources and time.', 6)}</div>
      <div class="wrapper"><div class="faq-container"><h2>Frequently asked questions</h2>${qa('What is work_mem')}${qa('How do I find slow queries')}${qa('Should I index every column')}${qa('What does vacuum do')}</div></div></div>
    <footer class="footer"><p>© 2025 Example. All rights reserved.</p></footer></body></html>`;
  const text = textOf(mainContentOf(html));
  for (const kept of ['Slow queries waste', 'Short answer to what is work_mem']) expect(text).toContain(kept);
  expect(text).not.toContain('All rights reserved');
});
