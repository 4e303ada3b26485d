import { describe, expect, test } from 'bun:test';
import { textOf } from '../../../core/kit.ts';
import { mainContentOf } from '../../../test/helpers/html-page.ts';

const prose = (topic: string) =>
  Array.from(
    { length: 4 },
    (_, i) => `<p>${topic} paragraph ${i + 1} reads like an article, with clauses, commas, and enough words to count as real prose.</p>`,
  ).join('');

// a Next.js app-router page as the server streams it: the shell shows fallbacks, the real parts
// come after it in hidden S:n divs (the completion scripts are left out: the move needs no script)
const STREAMED = `<!doctype html><html><head><title>Index funds</title></head><body>
<header><nav><a href="/">Home</a> <a href="/invest">Investing</a></nav></header>
<main><article><h1>Index funds</h1><div class="article-body">
<!--$?--><template id="B:0"></template><div>Loading paragraph...</div><!--/$-->
<template id="B:1"></template><div>Loading paragraph...</div>
<!--$?--><template id="B:2"></template><div class="skeleton"><span>Loading</span></div><!--/$-->
</div></article></main>
<footer><p>Copyright. All rights reserved.</p></footer>
<div hidden id="S:0">${prose('Opening')}</div>
<div hidden id="S:1"><h2>How they work</h2><template id="P:3"></template></div>
<div hidden id="S:2">${prose('Closing')}</div>
<div hidden id="S:3">${prose('Middle')}</div>
</body></html>`;

describe('React streaming SSR', () => {
  test('streamed parts replace their fallbacks, in place and in order', () => {
    const text = textOf(mainContentOf(STREAMED));
    expect(text).not.toContain('Loading');
    const at = (s: string) => text.indexOf(s);
    expect(at('Opening paragraph 1')).toBeGreaterThanOrEqual(0);
    expect(at('Opening paragraph 4')).toBeLessThan(at('How they work'));
    expect(at('How they work')).toBeLessThan(at('Middle paragraph 1'));
    expect(at('Middle paragraph 4')).toBeLessThan(at('Closing paragraph 1'));
    expect(text).not.toContain('All rights reserved');
  });

  test('an unmatched hidden segment stays hidden', () => {
    const html = STREAMED.replace('<div hidden id="S:2">', '<div hidden id="S:9">');
    const text = textOf(mainContentOf(html));
    expect(text).not.toContain('Closing paragraph');
    expect(text).toContain('Opening paragraph 1');
  });
});
