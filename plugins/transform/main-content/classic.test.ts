import { describe, expect, test } from 'bun:test';
import { textOf } from '../../../core/kit.ts';
import { mainContentOf } from '../../../test/helpers/html-page.ts';
import { isThreadOpener } from './comments.ts';
import { metaLine, titleWords } from './metalines.ts';

const extract = (html: string, url = 'https://example.org/page') => textOf(mainContentOf(html, { url }));

/** Paragraphs of a made-up post about lighthouses, long enough to read as a body. */
const body = (n = 4) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>Keeper's note ${i + 1}: the lamp was lit at dusk, the lens turned all night, and the logbook recorded every passing ship, every change of wind, and every hour of fog.</p>`,
  ).join('\n');

const page = (inner: string, title = 'Winter at the lighthouse') =>
  `<!doctype html><html><head><title>${title} | Harbour Notes</title></head><body>
  <div id="header"><a href="/">Harbour Notes</a></div>
  <div id="menu"><ul><li><a href="/a">Archive</a></li><li><a href="/b">About</a></li></ul></div>
  <div id="center">${inner}</div>
  <div id="right"><div class="sidebar"><h3>Links</h3><ul><li><a href="/x">Another blog about boats</a></li></ul></div></div>
  </body></html>`;

describe('comment threads without a comment class', () => {
  const comment = (name: string, text: string) =>
    `<div><p>${text}</p></div><p class="posted">Posted by: ${name} at September 10, 2012 11:40 AM</p>`;
  const thread = Array.from({ length: 6 }, (_, i) =>
    comment(`Reader ${i}`, `I loved this story about the lamp and the fog, it reminds me of my own summers by the sea, number ${i}.`),
  ).join('\n');

  test('a "Comments" heading and the flat thread after it are left out', () => {
    const text = extract(
      page(`<div class="content"><h2>Winter at the lighthouse</h2>${body()}<p class="posted">Posted by laurie at September 10, 2012 9:01 AM</p>
      <h2 id="comments">Comments</h2>${thread}<h2>Post a comment</h2><p>Name:</p></div>`),
    );
    expect(text).toContain("Keeper's note 4");
    expect(text).not.toContain('I loved this story');
    expect(text).not.toContain('Reader 3');
  });

  test('"N Responses to …" opens a thread whatever follows it', () => {
    const text = extract(
      page(
        `<div class="entry">${body()}<h3>4 Responses to “Winter at the lighthouse”</h3><ol><li><p>Great, thanks!</p></li><li><p>More please.</p></li></ol></div>`,
      ),
    );
    expect(text).toContain("Keeper's note 1");
    expect(text).not.toContain('Great, thanks');
    expect(text).not.toContain('Responses to');
  });

  test('a section titled "Comments" that is not a thread stays (a programming guide)', () => {
    const guide = `<div class="content"><h2>Comments</h2><p>In this language a comment starts with a hash sign and runs to the end of the line; the interpreter ignores it entirely, so comments cost nothing at run time.</p>
      <p>Use them to explain why the code does something, not what it does: the code already says what, and a comment that repeats it only goes stale when the code changes later on.</p>
      <p>Block comments are just several line comments in a row, each starting with its own hash sign, and tools re-flow them as one paragraph when they format the file.</p></div>`;
    const text = extract(page(`${body(3)}${guide}`, 'Style guide'));
    expect(text).toContain('a comment starts with a hash sign');
    expect(text).toContain('Block comments are just several');
  });

  test('a comment count in a byline does not cut the post', () => {
    const text = extract(page(`<div class="content"><p>By Jane Roe · <a href="#c">12 Comments</a></p>${body()}</div>`));
    expect(text).toContain("Keeper's note 1");
    expect(text).toContain("Keeper's note 4");
  });

  test('on a forum thread the replies are the content', () => {
    const post = (who: string, t: string) =>
      `<div class="post-content"><p class="author">${who}</p><p>${t} I have tried the usual fixes and read the manual twice over, without any luck so far.</p></div>`;
    const html = `<html><head><title>Lamp will not turn</title><meta name="generator" content="phpBB"></head><body><div id="page-body"><h2>Lamp will not turn</h2>
      ${post('keeper1', 'The lens of my lamp stopped turning last night.')}<h3>2 Replies</h3>${post('keeper2', 'Check the clockwork weights first, they often jam in the cold.')}</div></body></html>`;
    expect(extract(html, 'https://forum.example.org/viewtopic.php?t=1')).toContain('clockwork weights');
  });

  test('isThreadOpener knows the usual wordings', () => {
    for (const t of [
      '12 Comments',
      'No comments',
      '5 thoughts on “Winter”',
      'Leave a Reply',
      '{ 19 comments… read them below or add one }',
      'Comments (3)',
      '45 users responded in "Winter"',
      'There are 27 comments. Add yours.',
      'Comments are closed.',
    ])
      expect(isThreadOpener(t)).toBe(true);
    for (const t of ['Comments on the proposed harbour law', 'Responses from the ministry were slow', 'Discussion of the results'])
      expect(isThreadOpener(t)).toBe(false);
  });
});

describe('a short post is not retried as a thread', () => {
  test('the comments under a short post stay out', () => {
    const html =
      page(`<div class="node"><div class="entry-content"><p>Hmmm. The harbour board and the keepers' union are meeting on Nov. 13 in the old customs house, and both sides promise news about the lamp. We will be there and report what they say, as we did last winter when the old lamp was retired and the keepers moved to the new tower on the hill.</p></div>
      <div id="comments" class="comment-wrapper">${Array.from({ length: 6 }, (_, i) => `<div class="comment"><p>Reply ${i}: this could be about the new lens, or the fog horn, or both of them at once, who knows really.</p></div>`).join('')}</div></div>`);
    const text = extract(html);
    expect(text).toContain('customs house');
    expect(text).not.toContain('Reply 3');
  });
});

describe('category and tag class words of a post', () => {
  test('a post filed under a "cookie" tag is not a cookie banner', () => {
    const html = page(
      `<div class="post-22 post type-post status-publish hentry category-recipes tag-cookie-recipes tag-share-the-love">${body()}</div>`,
    );
    expect(extract(html)).toContain("Keeper's note 2");
  });
});

describe('meta lines around the body', () => {
  test('dateline, byline, filing, credits and post navigation go; the headline heading, the body and its own dates stay', () => {
    const html = page(`<div class="content">
      <a href="/cat/lights">Lights</a>
      <p>« Summer at the lighthouse | <a href="/">Main</a> | Spring tides »</p>
      <h3>Winter at the lighthouse</h3>
      <p>PUBLISHED: 5 March 2012 | UPDATED: 6 March 2012</p>
      <p>By Jane Roe</p>
      ${body(2)}
      <p>On January 4, 2012 the storm broke the west window, and the keeper wrote it all down before the sun rose over the bay.</p>
      ${body(2)}
      <p>Photo credit: Harbour archive</p>
      <p>Tags: lighthouses, winter, fog</p>
      <p>Posted by Jane Roe at 9:01 AM</p>
      <p>Share this: <a href="/t">Twitter</a> <a href="/f">Facebook</a></p>
      </div>`);
    const text = extract(html);
    for (const kept of ["Keeper's note 1", 'On January 4, 2012 the storm broke']) expect(text).toContain(kept);
    // (the headline is a heading: the content's subject stays, as its first line)
    expect(text).toStartWith('Winter at the lighthouse\n');
    for (const gone of [
      'Lights',
      'Summer at the lighthouse',
      'PUBLISHED',
      'By Jane Roe',
      'Photo credit',
      'Tags:',
      'Posted by',
      'Share this',
    ])
      expect(text).not.toContain(gone);
  });

  test("a short link line is a kicker only at the top: after a line of the text it is the text's", () => {
    const headline = 'Winter at the lighthouse on the cape';
    const html = page(
      `<div class="content">
      <h3>${headline}</h3>
      <p>What the keepers did each winter.</p>
      <p><a href="/lamp-care">Caring for the lamp</a></p>
      ${body(3)}
      </div>`,
      headline,
    );
    const text = extract(html);
    expect(text).toContain('Caring for the lamp');
    expect(text).toContain('What the keepers did');
    expect(text).toStartWith(`${headline}\n`);
    const kicked = extract(
      page(`<div class="content"><p><a href="/cat/lights">Lights</a></p><h3>${headline}</h3>${body(3)}</div>`, headline),
    );
    expect(kicked).not.toContain('Lights');
  });

  test('lines between <br>s in a table cell are lines too', () => {
    const html = `<html><head><title>Winter at the lighthouse</title></head><body><table><tr><td class="nav"><a href="/">Home</a></td>
      <td class="main">Winter at the lighthouse<br>Thursday, October 25, 2012 at 9:15AM<br><br>${Array.from({ length: 4 }, (_, i) => `Keeper's note ${i + 1}: the lamp was lit at dusk, the lens turned all night, and the logbook recorded every passing ship, every change of wind.<br><br>`).join('')}Labels: lamps, fog</td></tr></table></body></html>`;
    const text = extract(html);
    expect(text).toContain("Keeper's note 3");
    for (const gone of ['Thursday, October 25', 'Labels:']) expect(text).not.toContain(gone);
  });

  test('content without a dateline, byline or headline repeat is no post: a guide keeps its short lines', () => {
    const html = page(
      `<div class="docs"><p>Source: the keepers' manual, 1952 edition</p>${body(3)}<p>Photo: the lamp room</p></div>`,
      'Lamp care',
    );
    const text = extract(html);
    expect(text).toContain("Source: the keepers' manual");
    expect(text).toContain('Photo: the lamp room');
  });

  test("a run of dates below the text dates a listing's items, not a post: they stay", () => {
    const items = Array.from(
      { length: 4 },
      (_, i) => `<p>October ${i + 2}, 2025</p><p><a href="/p${i}">Another note from the tower</a></p>`,
    ).join('');
    const text = extract(page(`<div class="blog">${body(3)}${items}</div>`, 'Harbour Notes'));
    expect(text).toContain('October 3, 2025');
  });

  test('a listing keeps its short link lines and dates', () => {
    const items = Array.from({ length: 8 }, (_, i) => `<li><a href="/e${i}">Harbour event ${i}</a><br>October ${i + 2}, 2025</li>`).join(
      '',
    );
    const html = `<html><head><title>Events</title></head><body><div class="events"><h1>Events</h1><ul>${items}</ul></div></body></html>`;
    const text = extract(html);
    expect(text).toContain('Harbour event 0');
    expect(text).toContain('October 9, 2025');
  });

  test('metaLine reads wording, not position', () => {
    expect(metaLine('Thursday, October 25, 2012 at 9:15AM')).toBe('date');
    expect(metaLine('By Derek Kreindler on August 9, 2012')).toBe('by');
    expect(metaLine('Filed under: Lighthouses, Winter')).toBe('filing');
    expect(metaLine('Image courtesy of the harbour archive')).toBe('lead');
    expect(metaLine('Mary · Quickies · 7 Comments · October 29th, 2012')).toBe('dated');
    expect(metaLine('By the way, the lamp is older than the tower.')).toBeNull();
    expect(metaLine('On January 4, 2012 the storm broke the west window.')).toBeNull();
    expect(metaLine('Winter at the lighthouse', titleWords('Winter at the lighthouse', 'Winter at the lighthouse | Harbour Notes'))).toBe(
      'title',
    );
    expect(metaLine('The lamp', titleWords('Winter at the lighthouse: a keeper looks back on forty years of fog and ships'))).toBeNull();
  });
});

describe('forum recognition', () => {
  test('a blog entry whose container and body both carry post classes is one post, not a thread', () => {
    const comments = Array.from(
      { length: 5 },
      (_, i) =>
        `<li class="comment"><div class="comment-text"><p>Reader ${i} says the lamp story was great, asks for more of these winter notes, and adds a memory of her own, of fog, of ships, of long nights.</p><p>She also wonders, as many of us do, whether the old lens still turns, whether the keepers kept their logbooks, and where those books are now.</p></div></li>`,
    ).join('');
    const html = page(`<div class="postcontainer"><div class="postbody">${body()}</div><ul class="commentlist">${comments}</ul></div>`);
    const text = extract(html);
    expect(text).toContain("Keeper's note 3");
    expect(text).not.toContain('Reader 2 says');
  });

  test("a page whose JSON-LD says DiscussionForumPosting is a thread: the post's author and date line stay", () => {
    const ld =
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Winter at the lighthouse"}</script>';
    const html = `<!doctype html><html><head><title>Winter at the lighthouse</title>${ld}</head><body><div class="thread">
      <p>Mod Sharon</p><p>28/11/2025 at 7:07 pm</p>${body(3)}</div></body></html>`;
    const text = extract(html);
    expect(text).toContain('Mod Sharon');
    expect(text).toContain('28/11/2025 at 7:07 pm');
    // the same lines on a page that says nothing of a thread read as a post's byline and dateline
    const plain = extract(html.replace(ld, ''));
    expect(plain).not.toContain('28/11/2025');
  });
});

describe('"read next" lists after the body', () => {
  const related = `<p><strong>Related posts:</strong></p><ul>${Array.from({ length: 5 }, (_, i) => `<li><a href="/p${i}">Another winter story number ${i} from the harbour</a></li>`).join('')}</ul>`;

  test('a bold "Related posts:" line and the links after it go', () => {
    const text = extract(page(`<div class="entry">${body()}${related}</div>`));
    expect(text).toContain("Keeper's note 4");
    expect(text).not.toContain('Related posts');
    expect(text).not.toContain('Another winter story');
  });

  test('a related box inside the text, with prose after it, stays in its place', () => {
    const text = extract(
      page(
        `<div class="entry">${body(6)}${related}<h2>The spring after</h2><p>When the ice left the bay, the keepers painted the tower white again and logged the first ferry of the season.</p><p>By May the fog had lifted for good, and the lamp burned only a few hours each night, which left the keepers time to mend the boats.</p></div>`,
      ),
    );
    expect(text).toContain('The spring after');
    expect(text).toContain('painted the tower white');
  });
});

describe('captions and photo credits', () => {
  test('figcaptions, caption-classed blocks and credit lines leave the body; numbered figure captions stay', () => {
    const html = page(`<div class="entry"><p>By Jane Roe</p>${body(2)}
      <figure><img src="/lamp.jpg" alt=""><figcaption>The old lamp, shortly before it was retired.</figcaption></figure>
      <div class="wp-caption"><img src="/tower.jpg" alt=""><p class="wp-caption-text">The tower seen from the ferry.</p></div>
      <p>(Photo: Harbour Archive/J. Roe)</p>
      ${body(2)}
      <figure><img src="/chart.png" alt=""><figcaption>Figure 2. Hours of fog per month, 1950-1960.</figcaption></figure>
      ${body(1)}</div>`);
    const text = extract(html);
    expect(text).toContain("Keeper's note 2");
    expect(text).toContain('Figure 2. Hours of fog');
    for (const gone of ['shortly before it was retired', 'seen from the ferry', 'Harbour Archive']) expect(text).not.toContain(gone);
  });

  test('a gallery whose captions are most of its text keeps them', () => {
    const shots = Array.from(
      { length: 8 },
      (_, i) =>
        `<div class="photo"><img src="/p${i}.jpg" alt=""><p class="caption">Picture ${i}: the keepers at work on the lens, the stairs and the long gallery around the lamp room.</p></div>`,
    ).join('');
    const html = page(
      `<div class="gallery"><p>Our winter pictures from the tower, as promised to readers of the harbour notes last autumn.</p>${shots}</div>`,
    );
    expect(extract(html)).toContain('Picture 5: the keepers at work');
  });
});

describe('where a page keeps its post', () => {
  const sidebar = `<div id="side"><h3>Archive</h3><ul>${Array.from({ length: 30 }, (_, i) => `<li><a href="/a${i}">Older harbour post number ${i}</a></li>`).join('')}</ul>
    <p>Harbour Notes is written by two retired keepers who still climb the tower stairs every morning, weather permitting, and answer every letter.</p></div>`;

  test('an <aside> holding most of the prose is the post, not a sidebar', () => {
    const html = page(`<section id="main"><aside class="blogPost"><h1>Winter at the lighthouse</h1>${body(4)}</aside></section>${sidebar}`);
    expect(extract(html)).toContain("Keeper's note 3");
  });

  test('a Typepad entry filed under "social media" is not a share bar', () => {
    const html = page(
      `<div class="entry-category-social_media entry-author-jane_roe entry-type-post entry" id="entry-1"><div class="entry-content">${body(4)}</div></div>${sidebar}`,
    );
    expect(extract(html)).toContain("Keeper's note 3");
  });
});

describe('lists of other stories after the post', () => {
  const story = (i: number) =>
    `<p><a href="/s${i}">Harbour board votes on the new fog horn, number ${i}</a></p><p>The board met again on Tuesday and argued for three hours about the horn, the budget and the keepers' pay, without any decision at all.</p><p>Harbour Press, January ${i + 2}</p>`;

  test('"Related stories:" with headline links and blurbs goes after a whole post, however long it is', () => {
    const text = extract(
      page(`<div class="story">${body(5)}<p><b>Related stories:</b></p>${Array.from({ length: 5 }, (_, i) => story(i)).join('')}</div>`),
    );
    expect(text).toContain("Keeper's note 5");
    expect(text).not.toContain('argued for three hours');
  });

  test('the same words heading a box inside the text, with sections after it, leave the text alone', () => {
    const text = extract(
      page(
        `<div class="story">${body(5)}<p><b>Related stories:</b></p>${Array.from({ length: 3 }, (_, i) => story(i)).join('')}<h2>Spring</h2>${body(4)}</div>`,
      ),
    );
    expect(text).toContain('Spring');
  });
});

describe('a page name is not a post headline', () => {
  test('a shop or docs page keeps its short heading; a story repeating its long headline loses it', () => {
    const guide = page(`<div class="docs"><p>Lamp oils</p>${body(3)}</div>`, 'Lamp oils');
    expect(extract(guide)).toContain('Lamp oils');
    const story = page(
      `<div class="story"><p>Harbour board votes to keep the old fog horn for another winter</p>${body(3)}</div>`,
      'Harbour board votes to keep the old fog horn for another winter',
    );
    expect(extract(story)).not.toContain('Harbour board votes');
  });
});
