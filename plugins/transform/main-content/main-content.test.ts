import { describe, expect, test } from 'bun:test';
import { PageDocument, textOf } from '../../../core/kit.ts';
import { createJob } from '../../../core/testing.ts';
import { mainContentTransform } from './main-content.ts';
import { mainContentOf } from '../../../test/helpers/html-page.ts';

const extract = (html: string, url?: string) => textOf(mainContentOf(html, url ? { url } : {}));

const para = (words: string, n = 3) =>
  Array.from(
    { length: n },
    (_, i) => `<p>${words} Sentence ${i + 1} goes on, with commas, clauses, and enough words to read like real prose in an article.</p>`,
  ).join('\n');

const ARTICLE = `<!doctype html><html><head><title>How tides work | Ocean Blog</title></head><body>
<header class="site-header"><a href="/">Ocean Blog</a><nav><ul><li><a href="/a">Home</a></li><li><a href="/b">Topics</a></li><li><a href="/c">About</a></li></ul></nav></header>
<div class="cookie-banner">We use cookies to improve your experience. <a href="/privacy">Privacy policy</a></div>
<div class="layout">
  <main><article>
    <h1>How tides work</h1>
    <div class="share-bar"><a href="https://x.example/share">Share on X</a> <a href="https://fb.example/share">Share on Facebook</a></div>
    <div class="entry-content">
      ${para('The moon pulls on the oceans.', 4)}
      <h2>Spring and neap tides</h2>
      ${para('When sun and moon align, tides grow.', 3)}
      <ul><li>Spring tides happen at new and full moon, twice a month.</li><li>Neap tides happen at the quarter moons, in between.</li></ul>
      <blockquote><p>Time and tide wait for no man, as the old proverb says about the sea.</p></blockquote>
      <figure><img src="tide.png" alt="tide chart"><figcaption>Tide heights over one lunar month at a harbour.</figcaption></figure>
    </div>
    <section class="related-posts"><h3>Related</h3><ul><li><a href="/x">Waves explained</a></li><li><a href="/y">Currents explained</a></li></ul></section>
  </article>
  <section id="comments" class="comments-area"><h3>3 comments</h3>
    <div class="comment"><p>Great read, thanks a lot for writing this up, I learned something new today about the sea.</p></div>
  </section></main>
  <aside class="sidebar"><h3>Popular</h3><ul><li><a href="/p1">Ten facts about whales you never knew before</a></li><li><a href="/p2">Why the sea is salty</a></li></ul></aside>
</div>
<footer class="site-footer"><p>© 2025 Ocean Blog. All rights reserved. Contact us at the harbour office any day.</p></footer>
</body></html>`;

const DOCS = `<!doctype html><html><head><title>Config reference - Tool docs</title></head><body>
<nav class="docs-nav"><ul><li><a href="/1">Install</a></li><li><a href="/2">Config</a></li><li><a href="/3">CLI</a></li><li><a href="/4">FAQ</a></li></ul></nav>
<div class="docs-content" role="main">
  <h1>Config reference</h1>
  <p>The tool reads its configuration from a TOML file, merges the environment, and validates everything at start-up.</p>
  <pre><code>[server]
port = 8080
host = "127.0.0.1"</code></pre>
  <table><thead><tr><th>Key</th><th>Default</th><th>Meaning</th></tr></thead>
    <tbody><tr><td>port</td><td>8080</td><td>TCP port to listen on</td></tr><tr><td>host</td><td>127.0.0.1</td><td>Address to bind</td></tr></tbody></table>
  <p>Unknown keys are rejected with a message that names the key, so typos never go unnoticed in production.</p>
</div>
<footer><a href="/edit">Edit this page</a> · <a href="/license">License</a></footer>
</body></html>`;

const post = (author: string, date: string, body: string) => `<div class="post js-post" data-post-id="${author}">
  <div class="post-meta"><span class="username">${author}</span> <time datetime="${date}">${date}</time></div>
  <div class="post-body"><p>${body}</p></div></div>`;
const FORUM = `<!doctype html><html><head><title>Help: my build fails - Forum</title></head><body>
<nav><a href="/">Forum</a> <a href="/latest">Latest</a> <a href="/top">Top</a></nav>
<div id="thread">
  <h1>Help: my build fails</h1>
  ${post('alice', '2024-05-01', 'My build fails with an out-of-memory error since I upgraded the compiler, on every machine I tried.')}
  ${post('bob', '2024-05-02', 'Try raising the heap limit with the flag from the docs; the new compiler needs more memory for large modules.')}
  ${post('carol', '2024-05-03', 'Same here. Raising the limit fixed it for me, and splitting the biggest module helped even more.')}
</div>
<div class="suggested-topics"><h3>Suggested topics</h3><a href="/t/1">Other thread</a></div>
<footer>Powered by forum software</footer>
</body></html>`;

describe('extractMainContent on hand-made pages', () => {
  test('article: keeps body, headings, lists, quotes, captions; drops nav, banners, share, related, comments, sidebar, footer', () => {
    const text = extract(ARTICLE);
    for (const kept of [
      'The moon pulls on the oceans.',
      'Spring and neap tides',
      'Neap tides happen',
      'Time and tide wait',
      'Tide heights over one lunar month',
    ])
      expect(text).toContain(kept);
    for (const dropped of ['Topics', 'cookies', 'Share on X', 'Waves explained', 'Great read', 'whales', 'All rights reserved'])
      expect(text).not.toContain(dropped);
  });

  test('blog post: drops the author box, the comment list and an unclassed "You might also like" tail', () => {
    const html = `<!doctype html><html><head><title>Sourdough at home</title></head><body><main><article class="post">
      <div class="entry-content">${para('Flour, water and salt make bread.', 5)}
        <h2>You might also like</h2><ul><li><a href="/a">Ten quick breads</a> Easy loaves for a weekday.</li><li><a href="/b">Pizza dough</a> A base for Friday.</li></ul>
        <div class="author-bio"><p>Jane bakes every weekend and writes about bread, starters and ovens for the blog.</p></div>
      </div></article>
      <ol class="comment-list"><li><article class="comment-body"><p>Lovely loaf, I tried it twice already and it came out great every time.</p></article></li>
      <li><article class="comment-body"><p>How long do you proof it in the fridge overnight for the best crumb?</p></article></li></ol>
    </main></body></html>`;
    const text = extract(html);
    expect(text).toContain('Flour, water and salt make bread.');
    for (const dropped of ['You might also like', 'Pizza dough', 'Jane bakes', 'Lovely loaf']) expect(text).not.toContain(dropped);
  });

  test('docs page: keeps code block and table', () => {
    const root = mainContentOf(DOCS);
    expect(root.querySelector('pre')?.textContent).toContain('port = 8080');
    expect(root.querySelector('table')?.textContent).toContain('TCP port to listen on');
    const text = textOf(root);
    expect(text).toContain('Unknown keys are rejected');
    expect(text).not.toContain('Edit this page');
    expect(text).not.toContain('Install');
  });

  test('forum thread: keeps every post with its author and date', () => {
    const text = extract(FORUM, 'https://forum.example/t/help-my-build-fails/42');
    for (const kept of ['alice', 'bob', 'carol', '2024-05-02', 'out-of-memory', 'heap limit', 'splitting the biggest module'])
      expect(text).toContain(kept);
    expect(text).not.toContain('Suggested topics');
    expect(text).not.toContain('Powered by');
  });

  test('forum thread: a reply quoting an earlier post ("Name said:") drops the copy, keeps its own words; unattributed quotes stay', () => {
    const quoted = `<blockquote class="bbCodeBlock bbCodeBlock--quote"><div class="bbCodeBlock-title">alice said:</div><div>My build fails with an out-of-memory error since the upgrade.</div></blockquote>`;
    const html = FORUM.replace('<p>Same here.', `<p>${quoted}Same here.`).replace(
      '<p>Try raising',
      '<p><blockquote>Memory limits are set per module by default.</blockquote>Try raising',
    );
    const text = extract(html, 'https://forum.example/t/help-my-build-fails/42');
    expect(text).not.toContain('alice said:');
    expect(text).not.toContain('since the upgrade');
    for (const kept of ['Same here.', 'Memory limits are set per module', 'heap limit']) expect(text).toContain(kept);
  });

  test('forum thread of two posts: a long answer does not leave out the short question', () => {
    const box = (cls: string, who: string, body: string) =>
      `<div class="blockpost ${cls}"><div class="box"><div class="postleft">${who}</div><div class="postbody"><div class="post-content">${body}</div></div></div></div>`;
    const html = `<html><head><title>ISO size</title></head><body><div id="brdmenu"><a href="/">Index</a> <a href="/search">Search</a></div><div id="topic">
      ${box('rowodd', 'chunix', '<p>Why did the ISO size grow so fast from one year to the next?</p>')}
      ${box('roweven', 'admin', para('The boot loader changed, so the kernel is shipped twice.', 4))}
    </div><div id="brdfooter"><a href="/rules">Rules</a></div></body></html>`;
    const text = extract(html, 'https://bbs.example/viewtopic.php?id=1');
    for (const kept of ['Why did the ISO size grow', 'chunix', 'kernel is shipped twice']) expect(text).toContain(kept);
  });

  test('Discourse-style posts inside <noscript> are found', () => {
    const html = `<html><head><meta name="generator" content="Discourse 3.2"></head><body><div id="app"></div><noscript>
      <div class="topic-body crawler-post"><span class="creator">dave</span><time>May 1</time><div class="post">${para('Posts rendered for crawlers live here.', 3)}</div></div>
      <div class="topic-body crawler-post"><span class="creator">erin</span><time>May 2</time><div class="post">${para('A reply that also lives in noscript.', 2)}</div></div>
    </noscript></body></html>`;
    const text = extract(html, 'https://discuss.example/t/x/1');
    expect(text).toContain('Posts rendered for crawlers live here.');
    expect(text).toContain('A reply that also lives in noscript.');
    expect(text).toContain('erin');
  });

  test('a page whose markup precedes <html> (linkedom leaves body empty) is still extracted', () => {
    const html = `<script>var x = 1;</script><!doctype html><html><meta charset="utf-8"><head><title>t</title></head><body><article>${para('Content after a stray script.', 4)}</article></body></html>`;
    expect(extract(html)).toContain('Content after a stray script.');
  });

  test('product page: keeps name, price and specs; drops customer reviews, consent banner and buttons', () => {
    const review = (who: string) =>
      `<li class="review"><b>${who}</b>${para(`${who} says the kettle boils fast, looks great, and was worth every penny.`, 2)}</li>`;
    const html = `<html><head><title>Steel Kettle 1.7 L | Shop</title><script type="application/ld+json">{"@type":"Product","name":"Steel Kettle"}</script></head><body>
      <div id="onetrust-consent-sdk">${para('We and our 100 partners store cookies on your device.', 6)}</div>
      <main><h1>Steel Kettle 1.7 L</h1><p class="price">$49.00</p><button class="add-to-cart">Add to cart and save this item</button>
        <ul class="specs"><li>Capacity: 1.7 litres</li><li>Power: 2200 W</li><li>Material: brushed steel</li></ul>
        <p>A brushed steel kettle with a rapid-boil element, a limescale filter, and a cool-touch handle.</p>
        <section id="customer-reviews"><h2>Reviews</h2><ul>${review('Ann')}${review('Ben')}${review('Cal')}</ul></section></main></body></html>`;
    const text = extract(html);
    for (const kept of ['Steel Kettle 1.7 L', '$49.00', 'Power: 2200 W', 'rapid-boil element']) expect(text).toContain(kept);
    for (const dropped of ['Ben says', 'partners store cookies', 'Add to cart']) expect(text).not.toContain(dropped);
  });

  test('product page: folded-away details stay; popovers, carousels and small print go', () => {
    const html = `<html><head><title>Desk Lamp | Shop</title><script type="application/ld+json">{"@type":"Product","name":"Desk Lamp"}</script></head><body>
      <main><h1>Desk Lamp</h1><p class="price">$39.00</p>${para('A steel desk lamp with a dimmable warm light.', 3)}
        <button id="care-button" aria-expanded="false">Care</button><div role="region" aria-labelledby="care-button" aria-hidden="true"><p>Wipe with a dry cloth, never with water or solvents of any kind.</p></div>
        <div class="accordion-body" style="display:none"><p>Ships within two days from our warehouse in a recyclable box.</p></div>
        <div class="delivery-popover">${para('Your order should arrive by this date if you buy today.', 2)}</div>
        <div class="product-carousel">${para('Floor Lamp, our other bestseller, with a linen shade.', 2)}</div>
        <div class="legal-disclaimer">${para('Rates between 0% and 36% APR apply to financing offers.', 2)}</div>
        <nav class="menu-accordion" style="display:none"><a href="/a">Lamps</a></nav></main></body></html>`;
    const text = extract(html);
    for (const kept of ['Desk Lamp', 'dimmable warm light', 'Wipe with a dry cloth', 'Ships within two days']) expect(text).toContain(kept);
    for (const dropped of ['should arrive by this date', 'Floor Lamp', 'APR apply', 'Lamps']) expect(text).not.toContain(dropped);
  });

  test('store front: rows named by one boilerplate word but different layout classes are its content', () => {
    const row = (
      name: string,
      extra: string,
    ) => `<div class="w-100 flex promo-carousel ${extra}"><h3>${name} Sale</h3><p>Save up to $800 on ${name} machines this month, with free delivery and assembly.</p>
      <div class="c-item"><a href="/1">${name} Model One</a> $1,299.00</div><div class="c-item"><a href="/2">${name} Model Two</a> $1,999.00</div></div>`;
    const html = `<html><head><title>Home Fitness Store</title></head><body>
      <nav class="main-nav"><a href="/a">Treadmills</a> <a href="/b">Bikes</a> <a href="/c">Rowers</a> <a href="/d">Massage</a></nav>
      <div class="hero"><h1>Spring Performance Sale</h1>${para('Get premium performance for less, plus free delivery.', 3)}</div>
      ${row('Treadmill', '')}${row('Exercise Bike', 'wrap-reverse-ns')}${row('Rower', 'pv1')}${row('Home Gym', 'wrap-reverse-ns pv4')}${row('Massage Chair', 'pv1')}${row('Stair Climber', '')}
      <footer class="footer"><p>© 2025 Fitness Store. All rights reserved. Find a store near you.</p></footer></body></html>`;
    const text = extract(html);
    for (const kept of ['Spring Performance Sale', 'Treadmill Sale', 'Rower Model Two', 'Home Gym machines']) expect(text).toContain(kept);
    expect(text).not.toContain('All rights reserved');
  });

  test('hidden wrappers are dropped unless they hold the page', () => {
    const html = `<html><body><div style="display:none">${para('Hidden promo text.', 1)}</div><div aria-hidden="true"><article>${para('Visible article text.', 8)}</article></div></body></html>`;
    const text = extract(html);
    expect(text).toContain('Visible article text.');
    expect(text).not.toContain('Hidden promo text.');
  });
});

describe('hostile input is bounded', () => {
  test('empty document', () => {
    expect(extract('')).toBe('');
    expect(extract('<html></html>')).toBe('');
  });

  test('script-only page', () => {
    expect(
      extract('<html><head><script>alert(1)</script></head><body><script>while(true){}</script><style>p{}</style></body></html>'),
    ).toBe('');
  });

  test('binary garbage', () => {
    const bytes = new Uint8Array(200_000);
    let seed = 7;
    for (let i = 0; i < bytes.length; i++) bytes[i] = (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    const html = new TextDecoder().decode(bytes);
    expect(() => extract(html)).not.toThrow();
  });

  test('10k-deep nesting does not overflow the stack', () => {
    const depth = 10_000;
    const html = `<html><body>${'<div>'.repeat(depth)}${para('Deep text.', 2)}${'</div>'.repeat(depth)}</body></html>`;
    const text = extract(html);
    expect(text).toContain('Deep text.');
  });

  test('10 MB page finishes in bounded time', () => {
    const block = `<div class="post"><h2>Title</h2>${para('Filler for a very large page.', 5)}<a href="/x">link</a></div>\n`;
    const html = `<html><body><main>${block.repeat(Math.ceil(10_000_000 / block.length))}</main></body></html>`;
    const t0 = performance.now();
    const text = extract(html);
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(performance.now() - t0).toBeLessThan(30_000);
  }, 60_000);
});

describe('lead-in', () => {
  const page = (type: string) => `<!doctype html><html><head><title>Roof repair</title>${type}</head><body>
<nav><a href="/">Home</a> <a href="/s">Services</a></nav>
<main><section class="hero"><h1>Roof repair you can count on</h1><p>Same-day leak fixes across the county, insured crews.</p></section>
<section class="details"><div class="copy">${para('Our crews fix leaks and replace shingles.', 5)}</div></section></main>
<footer><p>© 2025 Roofers Inc. All rights reserved.</p></footer></body></html>`;

  test("a service page's hero heading and pitch start the content", () => {
    const text = extract(page(''));
    expect(text).toContain('Same-day leak fixes');
    expect(text).toContain('Our crews fix leaks');
  });

  test("an article's headline block is metadata", () => {
    const text = extract(page('<meta property="og:type" content="article">'));
    expect(text).not.toContain('Same-day leak fixes');
    expect(text).toContain('Our crews fix leaks');
  });

  test('og:type "article" on a page whose JSON-LD calls it a plain WebPage (an SEO plugin\'s default) does not make it an article', () => {
    const graph = (type: string) =>
      `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"${type}","name":"Roof repair"},{"@type":"WebSite","name":"Roofers"}]}</script>`;
    const og = '<meta property="og:type" content="article">';
    expect(extract(page(og + graph('WebPage')))).toContain('Same-day leak fixes');
    // (the plugin's graph for a post names the article: that still decides)
    expect(extract(page(og + graph('WebPage"},{"@type":"Article')))).not.toContain('Same-day leak fixes');
  });
});

describe('mainContentTransform plugin', () => {
  const run = async (onlyMain: boolean, html: string) => {
    const job = createJob(
      { url: 'https://example.com/a', formats: ['markdown'], noCache: false, onlyMainContent: onlyMain },
      'default',
      new AbortController().signal,
    );
    const doc = new PageDocument(job);
    doc.setContentHtml(html);
    const handler = await mainContentTransform.setup(mainContentTransform.options!.parse({}), {} as never);
    await handler.apply(doc);
    return doc;
  };

  test('metadata', () => {
    expect(mainContentTransform.kind).toBe('transform');
    expect(mainContentTransform.name).toBe('main-content');
    expect(mainContentTransform.provides).toContain('transform:main-content');
  });

  test('narrows doc.root when only_main_content is set', async () => {
    const doc = await run(true, ARTICLE);
    const text = textOf(doc.root!);
    expect(text).toContain('The moon pulls on the oceans.');
    expect(text).not.toContain('All rights reserved');
  });

  test('runs on what earlier transforms left: inside the include_selectors selection, without excluded blocks', () => {
    const specs =
      '<section class="specs"><h2>Specifications</h2><ul><li>Capacity: 1.7 litres</li><li>Power: 2200 watts</li></ul><div class="cookie-banner">We use cookies. <a href="/privacy">Privacy policy</a></div><div style="display:none" class="promo-popup"><p>Sign up now for ten percent off your first order with us today.</p></div></section>';
    const html = ARTICLE.replace('<aside class="sidebar">', `${specs}<aside class="sidebar">`);
    const selected = textOf(mainContentOf(html, { includeSelectors: ['.specs'] }));
    expect(selected).toContain('Capacity: 1.7 litres');
    for (const dropped of ['We use cookies', 'ten percent off']) expect(selected).not.toContain(dropped);
    expect(selected).not.toContain('The moon pulls on the oceans.');
    const excluded = textOf(mainContentOf(html, { excludeSelectors: ['blockquote'] }));
    expect(excluded).toContain('The moon pulls on the oceans.');
    expect(excluded).not.toContain('Time and tide wait');
  });

  test('a small selection is kept, never swapped for the page description', () => {
    const html =
      '<html><head><meta name="description" content="A long description of the whole shop, its kettles, its toasters and its delivery terms, much longer than the selection."></head><body><article><p>Some article text.</p></article><p class="price">Price: 40 euros</p></body></html>';
    expect(textOf(mainContentOf(html, { includeSelectors: ['.price'] }))).toBe('Price: 40 euros');
  });

  test('leaves doc.root alone otherwise', async () => {
    const doc = await run(false, ARTICLE);
    expect(textOf(doc.root!)).toContain('All rights reserved');
  });
});

test('code keeps its highlighted comments (hljs-comment, token comment are not comment sections)', () => {
  const prose = Array.from(
    { length: 4 },
    (_, i) => `<p>Paragraph ${i + 1} explains the command, with clauses, commas, and enough words to be real prose.</p>`,
  ).join('');
  const root = mainContentOf(`<html><body><article>${prose}<pre><code><span class="hljs-comment"># stage every modified file</span>
git add -A
<span class="token comment">// and commit them</span></code></pre>${prose}</article></body></html>`);
  const text = textOf(root);
  expect(text).toContain('# stage every modified file');
  expect(text).toContain('// and commit them');
});

test('an <aside> callout of plain prose set among the paragraphs stays; a sidebar of links does not', () => {
  const prose = Array.from(
    { length: 4 },
    (_, i) => `<p>Paragraph ${i + 1} explains the myth, with clauses, commas, and enough words to be real prose.</p>`,
  ).join('');
  const callout =
    '<aside class="center"><h3>Not all vegetarians are the same</h3><p>The types of vegetarian diets eaten in the country vary widely, from those that allow eggs and milk to vegan plans with no animal products at all, and they differ in protein.</p></aside>';
  const root = mainContentOf(
    `<html><body><article>${prose}${callout}${prose}</article><aside class="sidebar"><a href="/a">Popular post one</a><a href="/b">Popular post two</a></aside></body></html>`,
  );
  const text = textOf(root);
  expect(text).toContain('vary widely');
  expect(text).not.toContain('Popular post');
});
