import { expect, test } from 'bun:test';
import { textOf } from '../../../core/kit.ts';
import { mainContentOf } from '../../../test/helpers/html-page.ts';

const para = (words: string, n = 3) =>
  Array.from(
    { length: n },
    (_, i) => `<p>${words} Sentence ${i + 1} goes on, with commas, clauses, and enough words to read like real prose.</p>`,
  ).join('\n');
const section = (inner: string) =>
  `<section class="builder-section wide"><div class="inner"><div class="text-widget">${inner}</div></div></section>`;

test("a page builder's intro and closing sections join the body section they frame (not its call to action or small print)", () => {
  const html = `<html><head><title>Sleep tips</title></head><body><nav class="menu"><a href="/">Home</a> <a href="/blog">Blog</a></nav>
    <main><div class="column">
      ${section(`<h1>Sleep tips</h1><p>Getting a toddler to sleep alone is hard for many families, and here is why it matters to everyone.</p><p>Parents who share a bed with a child often report short nights, and the child sleeps worse too, waking at every turn.</p><p>The tips below work for most families.</p>`)}
      ${section(para('Start with a plan and keep to it.', 8))}
      ${section(`<p>Remember that sleep training takes weeks, not nights, and that patience pays off for the whole family. Praise every small success, and keep the routine the same on weekends and on holidays, even when travelling far from home.</p>`)}
      ${section(`<h2>Ready to sleep better?</h2><p>Book a call with our coaches today, it is free.</p>`)}
      ${section(`<h2>Disclaimer</h2><p>This article is for general information only and is not medical advice of any kind whatsoever.</p>`)}
    </div></main>
    <footer class="footer"><p>© 2025 Example. All rights reserved.</p></footer></body></html>`;
  const text = textOf(mainContentOf(html));
  for (const kept of ['toddler to sleep alone', 'Start with a plan', 'takes weeks, not nights']) expect(text).toContain(kept);
  expect(text.indexOf('toddler to sleep alone')).toBeLessThan(text.indexOf('Start with a plan'));
  for (const left of ['not medical advice', 'Book a call']) expect(text).not.toContain(left);
});
