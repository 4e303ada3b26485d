// Clean transform: non-content markup, invisible elements and the noscript rule.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHtmlDocument, textOf } from '../../../core/kit.ts';
import { testContext, testDocument } from '../../../core/testing.ts';
import { cleanContent, cleanTransform } from './clean.ts';
import { isJavaScriptNotice, isNoticeBlock, isTrackingPixel } from './noscript.ts';
import { isDecorativeAriaHidden, isInlineHidden } from './visibility.ts';

/** Cleans a body fragment and returns its HTML with formatting whitespace squeezed out. */
function cleaned(body: string): string {
  const dom = parseHtmlDocument(`<!doctype html><html><head></head><body>${body}</body></html>`);
  cleanContent(dom.body);
  return dom.body.innerHTML.replace(/>\s+</g, '><').trim();
}

describe('markup that is not content', () => {
  test('scripts, styles, templates, links, metas, embeds and frames go', () => {
    expect(
      cleaned(
        '<p>a</p><script>x()</script><style>p{}</style><template><p>t</p></template><link rel="stylesheet" href="s.css"><meta name="x" content="y"><iframe src="https://ads.example/"></iframe><object data="x.swf"></object><embed src="x.swf"><canvas></canvas><p>b</p>',
      ),
    ).toBe('<p>a</p><p>b</p>');
  });

  test('noframes and noembed go: their content is raw text that browsers showing frames and embeds never render', () => {
    expect(
      cleaned(
        '<p>a</p><noframes><a href="/v"><img src="/v.jpg" alt="Video"></a></noframes><noembed>Your browser cannot play this</noembed><p>b</p>',
      ),
    ).toBe('<p>a</p><p>b</p>');
  });

  test('comments go, also nested ones', () => {
    expect(cleaned('<!-- top --><div><!-- inner --><p>kept<!-- in text --></p></div>')).toBe('<div><p>kept</p></div>');
  });

  test('a closed dialog goes, an open one stays', () => {
    expect(cleaned('<dialog><p>Subscribe!</p></dialog><dialog open><p>Notice</p></dialog>')).toBe('<dialog open><p>Notice</p></dialog>');
  });

  test('icon SVGs go; a named SVG image becomes its name', () => {
    expect(
      cleaned(
        '<button><svg viewBox="0 0 1 1"><path d="M0"/></svg>Menu</button><svg role="img" aria-label="Revenue by quarter"><rect/></svg><svg role="img"><title>Logo of Acme</title></svg>',
      ),
    ).toBe('<button>Menu</button><span>Revenue by quarter</span><span>Logo of Acme</span>');
  });
});

describe('what a reader would not see', () => {
  test('hidden attribute and inline display/visibility', () => {
    expect(
      cleaned(
        '<p hidden>h</p><p style="color: red; DISPLAY : none !important">d</p><p style="visibility:hidden">v</p><p style="display:block">shown</p><p hidden="until-found">accordion</p>',
      ),
    ).toBe('<p style="display:block">shown</p><p hidden="until-found">accordion</p>');
  });

  test('decorative aria-hidden goes; a large aria-hidden region (page behind a modal) stays', () => {
    const page = '<div aria-hidden="true"><h1>Article</h1><p>This is the whole article text which must survive.</p></div>';
    expect(cleaned(`<h2><span aria-hidden="true">#</span> Setup</h2><i class="icon" aria-hidden="true"></i>${page}`)).toBe(
      `<h2> Setup</h2>${page}`,
    );
  });

  test('the root itself is never removed (anti-flicker snippets hide <body>)', () => {
    const dom = parseHtmlDocument('<html><body style="display:none" hidden><p>content</p></body></html>');
    cleanContent(dom.body);
    expect(dom.body.innerHTML).toBe('<p>content</p>');
  });

  test('predicates', () => {
    const el = (html: string) => parseHtmlDocument(`<html><body>${html}</body></html>`).body.firstElementChild!;
    expect(isInlineHidden(el('<p style="display: none">x</p>'))).toBe(true);
    expect(isInlineHidden(el('<p style="display: nonexistent">x</p>'))).toBe(false);
    expect(isInlineHidden(el('<p style="visibility: collapse">x</p>'))).toBe(true);
    expect(isDecorativeAriaHidden(el('<span aria-hidden="true">★★★★☆</span>'))).toBe(true);
    expect(isDecorativeAriaHidden(el('<span aria-hidden="false">x</span>'))).toBe(false);
  });
});

describe('noscript', () => {
  test('real content inside noscript is kept (Discourse), pixels and JavaScript notices are not', () => {
    const dom = parseHtmlDocument(readFileSync(join(import.meta.dir, 'fixtures', 'discourse-topic.html'), 'utf8'));
    cleanContent(dom.body);
    expect(dom.body.querySelector('noscript')).toBeNull();
    expect(textOf(dom.body)).toBe(
      [
        'Best way to store sourdough starter?',
        'I bake once a week. Should the starter live in the fridge between bakes, or on the counter?',
        'Fridge. Feed it the day before you bake and it will be lively again by the morning.',
        'Powered by Discourse, best viewed with JavaScript enabled',
      ].join('\n\n'),
    );
  });

  test('a notice block opening a noscript goes; the real text after it stays', () => {
    expect(
      cleaned(
        '<noscript><div class="enable_js"><p>For full functionality, enable JavaScript. <a href="https://enable-javascript.example">How to enable JavaScript</a>.</p></div><h5>Welcome</h5><p>Our privacy notice explains how we use data.</p></noscript>',
      ),
    ).toBe('<h5>Welcome</h5><p>Our privacy notice explains how we use data.</p>');
  });

  test('escaped markup inside noscript (pages saved with scripting on) is parsed, then judged', () => {
    expect(
      cleaned(
        '<noscript>&lt;div style="position:absolute"&gt;&lt;img width=1 height=1 src="https://b.example/b?P=1"&gt;&lt;/div&gt;</noscript><noscript>&lt;p&gt;A real paragraph kept for readers without scripts.&lt;/p&gt;</noscript><noscript>1 &lt; 2</noscript>',
      ),
    ).toBe('<p>A real paragraph kept for readers without scripts.</p>1 &lt; 2');
  });

  test('a lone non-pixel image is kept; a tracking pixel is dropped', () => {
    expect(
      cleaned('<noscript><img src="/photo.jpg" alt="Photo"></noscript><noscript><img src="/p.gif" width="1" height="1"></noscript>'),
    ).toBe('<img src="/photo.jpg" alt="Photo">');
  });

  test('lazy-image fallback: replaces a bare placeholder, is dropped next to a lazy image', () => {
    expect(cleaned('<img src="data:image/gif;base64,R0lGOD" alt="x"><noscript><img src="/real.jpg" alt="Real"></noscript>')).toBe(
      '<img src="/real.jpg" alt="Real">',
    );
    expect(cleaned('<img src="/blank.gif" data-src="/real.jpg"><noscript><img src="/real.jpg"></noscript>')).toBe(
      '<img src="/blank.gif" data-src="/real.jpg">',
    );
    expect(cleaned('<picture><source srcset="/a.webp"><img src="/a.jpg"></picture><noscript><img src="/a.jpg"></noscript>')).toBe(
      '<picture><source srcset="/a.webp"><img src="/a.jpg"></picture>',
    );
  });

  test('notice and pixel predicates', () => {
    expect(isJavaScriptNotice('You need to enable JavaScript to run this app.')).toBe(true);
    expect(isJavaScriptNotice('This site requires JavaScript.')).toBe(true);
    expect(isJavaScriptNotice('JavaScript is disabled in your browser.')).toBe(true);
    expect(
      isJavaScriptNotice(
        '\n  For full functionality, it is necessary to enable\n                                                 JavaScript.\n',
      ),
    ).toBe(true);
    expect(isJavaScriptNotice('現在JavaScriptが無効になっています。JavaScriptの設定を有効にしてください。')).toBe(true);
    expect(isJavaScriptNotice('Fridge. Feed it the day before you bake.')).toBe(false);
    expect(isNoticeBlock('Please enable JavaScript.')).toBe(true);
    expect(isNoticeBlock('JavaScript is currently disabled in your browser.')).toBe(true);
    expect(isNoticeBlock('Try it with JavaScript turned off first, then compare.')).toBe(false);
    expect(isNoticeBlock('Our JavaScript course starts in May.')).toBe(false);
    const img = (attrs: string) => parseHtmlDocument(`<html><body><img ${attrs}></body></html>`).querySelector('img')!;
    expect(isTrackingPixel(img('src="https://www.facebook.com/tr?id=1"'))).toBe(true);
    expect(isTrackingPixel(img('src="/x.gif" width="1"'))).toBe(true);
    expect(isTrackingPixel(img('src="/hero.jpg" width="1200"'))).toBe(false);
  });
});

test('the plugin cleans doc.root and leaves a document without content alone', async () => {
  const handler = await cleanTransform.setup({}, testContext());
  const doc = testDocument({ url: 'https://example.com/' });
  await handler.apply(doc);
  expect(doc.root).toBeNull();
  doc.setContentHtml('<p>a</p><script>b()</script>');
  await handler.apply(doc);
  expect(doc.root!.innerHTML).toBe('<p>a</p>');
  expect(cleanTransform.order).toBe('pre');
});

test('before main content (only_main_content) it leaves hidden elements, SVGs, noscript and JSON-LD for main content to judge', async () => {
  const handler = await cleanTransform.setup({}, testContext());
  const body =
    '<p>a</p><script>b()</script><script type="application/ld+json">{"@type":"Product"}</script><!-- c --><div hidden><p>folded</p></div><svg><title>Logo</title></svg><noscript><p>fallback</p></noscript>';
  const doc = testDocument({ url: 'https://example.com/', onlyMainContent: true });
  doc.setContentHtml(body);
  await handler.apply(doc);
  expect(doc.root!.innerHTML).toBe(
    '<p>a</p><script type="application/ld+json">{"@type":"Product"}</script><div hidden><p>folded</p></div><svg><title>Logo</title></svg><noscript><p>fallback</p></noscript>',
  );
  const full = testDocument({ url: 'https://example.com/' });
  full.setContentHtml(body);
  await handler.apply(full);
  expect(full.root!.innerHTML).toBe('<p>a</p><p>fallback</p>');
});
