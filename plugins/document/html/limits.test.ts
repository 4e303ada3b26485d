// Parse limits: a page over the element limit is cut before parsing and one nested past the depth
// limit is flattened below it, each with a warning; pages within both are untouched.
import { describe, expect, test } from 'bun:test';
import { DEFAULT_PARSE_LIMITS, htmlDocument } from './html.ts';
import { elementCutOffset, flattenDeeperThan } from './limits.ts';
import { parseHtmlDocument, SERVED_HTML, textOf } from '../../../core/kit.ts';
import type { PageDocument } from '../../../core/kit.ts';
import { testContext, testDocument } from '../../../core/testing.ts';

async function parsed(html: string, options = {}): Promise<PageDocument> {
  const handler = await htmlDocument.setup(htmlDocument.options!.parse(options), testContext());
  const doc = testDocument({ url: 'https://example.com/' });
  doc.response = {
    status: 200,
    headers: {},
    body: new TextEncoder().encode(html),
    finalUrl: 'https://example.com/',
    mediaType: 'text/html',
    text: html,
  };
  await handler.parse(doc);
  return doc;
}

describe('element limit', () => {
  test('counts start tags as the tokenizer sees them: not in comments, scripts, styles, titles, textareas, noscripts or after plaintext', () => {
    expect(elementCutOffset('<p>a</p>'.repeat(10), 10)).toBeNull();
    expect(elementCutOffset('<p>a</p>'.repeat(11), 10)).toBe(80);
    const hidden = `<!-- ${'<b>'.repeat(50)} --><script>${'<i>'.repeat(50)}</SCRIPT ><style>${'<u>'.repeat(50)}</style><title>${'<a>'.repeat(50)}</title><textarea>${'<a>'.repeat(50)}</textarea><noscript>${'<img>'.repeat(50)}</noscript>`;
    expect(elementCutOffset(`<html>${hidden}${'<p>'.repeat(4)}`, 10)).toBeNull();
    expect(elementCutOffset(`<html>${hidden}${'<p>'.repeat(5)}`, 10)).toBe(`<html>${hidden}${'<p>'.repeat(4)}`.length);
    expect(elementCutOffset(`<html><plaintext>${'<p>'.repeat(50)}`, 10)).toBeNull();
    // end tags, doctype and stray '<' are not elements
    expect(elementCutOffset(`<!doctype html>${'</p> < 3 <'.repeat(50)}<p>`, 10)).toBeNull();
  });

  test('a page of 350,000 paragraphs is read up to the limit, with a warning', async () => {
    const html = '<p>x</p>'.repeat(350_000);
    const doc = await parsed(html);
    // html, head and body are implied by the parser, not counted in the markup
    expect(doc.root!.childElementCount).toBe(DEFAULT_PARSE_LIMITS.maxElements);
    expect(doc.messages).toEqual([
      {
        level: 'warning',
        stage: 'document',
        plugin: 'document.html',
        message: 'The page has more than 300000 elements; only the first 300000 are read',
      },
    ]);
    expect(doc.data.get(SERVED_HTML)!.length).toBe(DEFAULT_PARSE_LIMITS.maxElements * 8);
  });

  test('the limit is an option; a page within it is read whole, without a warning', async () => {
    const html = `<html><head><title>t</title></head><body>${'<p>x</p>'.repeat(2_000)}<p>the end</p></body></html>`;
    const small = await parsed(html, { maxElements: 1_000 });
    expect(textOf(small.root!)).not.toContain('the end');
    expect(small.messages[0]!.message).toBe('The page has more than 1000 elements; only the first 1000 are read');
    const whole = await parsed(html);
    expect(textOf(whole.root!)).toContain('the end');
    expect(whole.messages).toEqual([]);
    expect(whole.data.get(SERVED_HTML)).toBe(html);
  });
});

describe('tree limit', () => {
  test('markup that makes the parser reopen formatting elements in every paragraph is read up to a bounded tree, with a warning', async () => {
    // 3,000 start tags, but each paragraph reopens every <b> before it: 4.5 million elements whole
    const html = Array.from({ length: 3_000 }, (_, i) => `<p><b id=${i}>x`).join('');
    const t0 = performance.now();
    const doc = await parsed(html);
    expect(performance.now() - t0).toBeLessThan(10_000);
    const elements = doc.dom!.querySelectorAll('*').length;
    expect(elements).toBeGreaterThan(20_000);
    expect(elements).toBeLessThanOrEqual(2 * html.length + 64);
    expect(doc.messages.map((m) => m.message)).toEqual([
      `The page's markup makes the parser build more than ${2 * html.length + 64} elements (it reopens unclosed formatting elements); only the first ${2 * html.length + 64} are read`,
    ]);
    expect(textOf(doc.root!).startsWith('x')).toBe(true);
  });
});

describe('depth limit', () => {
  test('elements deeper than the limit become their text; the text is all still there', async () => {
    const html = `<!doctype html><html><body>${'<div>'.repeat(5_000)}<p>Deep <a href="/x">text</a>.</p>${'</div>'.repeat(5_000)}<p>After.</p></body></html>`;
    const doc = await parsed(html);
    expect(doc.messages.map((m) => m.message)).toEqual([
      'The page nests elements more than 1000 deep; what is deeper is kept as plain text',
    ]);
    expect(textOf(doc.root!)).toContain('Deep text.');
    expect(textOf(doc.root!)).toContain('After.');
    expect(doc.dom!.querySelector('a')).toBeNull();
    let depth = 1; // <html>, then the chain from <body> down
    for (let el: Element | null = doc.dom!.body; el; el = el.firstElementChild) depth++;
    expect(depth).toBe(DEFAULT_PARSE_LIMITS.maxDepth);
  });

  test('unclosed tags count as the parser nests them; a page within the limit is untouched', () => {
    const dom = parseHtmlDocument(`<!DOCTYPE html><html><body>${'<div><span>'.repeat(10)}text</body></html>`);
    expect(flattenDeeperThan(dom, 22)).toBe(0);
    expect(flattenDeeperThan(dom, 21)).toBe(1);
    expect(dom.querySelectorAll('span').length).toBe(9);
    expect(textOf(dom.body)).toBe('text');
  });
});
