import { describe, expect, test } from 'bun:test';
import { textOf } from '../../../core/kit.ts';
import { mainContentOf } from '../../../test/helpers/html-page.ts';

const extract = (html: string, url = 'https://example.org/lamp-will-not-turn') => textOf(mainContentOf(html, { url }));

const who = (i: number) => `keeper${i}`;
const when = (i: number) => `March ${i + 1}, 2024 at 9:${String(10 + i).padStart(2, '0')} am`;
const reply = (i: number) =>
  `Reply ${i}: check the clockwork weights and the oil in the bearings, the cold makes the old grease stiff and the lens slows down until it stops for good.`;

/** A page shell: site header, menu and footer around `inner`, in markup no forum software is known by. */
const page = (inner: string, head = '') =>
  `<!doctype html><html><head><title>The lamp will not turn | Harbour Keepers</title><meta property="og:type" content="article">${head}</head><body>
  <div class="site-top"><a href="/">Harbour Keepers</a><ul class="menu"><li><a href="/board">Board</a></li><li><a href="/about">About</a></li></ul></div>
  <div class="site-body">${inner}</div>
  <footer><p>© Harbour Keepers</p></footer></body></html>`;

/** One block of a post list: author link, date and text, as a thread's posts and an article's comments both show them. */
const entry = (cls: string, i: number, text: string) =>
  `<div class="${cls}"><div class="post-meta"><a href="/members/${who(i)}/">${who(i)}</a> <time datetime="2024-03-${String(i + 1).padStart(2, '0')}T09:00">${when(i)}</time></div>
  <div class="entry-text"><p>${text}</p></div></div>`;

describe('a thread told by its structure', () => {
  const question =
    'The lens of my lamp stopped turning last night, just after the first frost. I have tried the usual fixes and read the manual twice over, without any luck so far. Has anyone seen this?';
  const thread = (replies: number) =>
    `<h1>The lamp will not turn</h1><div class="topic">${entry('topic-entry topic-first', 0, question)}
    <h2>${replies} Replies</h2>${Array.from({ length: replies }, (_, i) => entry('topic-entry', i + 1, reply(i + 1))).join('\n')}</div>`;

  test('a thread of 20 replies in unknown markup keeps every reply with its author and date', () => {
    const text = extract(page(thread(20)));
    expect(text).toContain('The lens of my lamp stopped turning');
    for (let i = 1; i <= 20; i++) {
      expect(text).toContain(`Reply ${i}:`);
      expect(text).toContain(who(i));
      expect(text).toContain(when(i));
    }
    expect(text).not.toContain('Harbour Keepers');
  });

  test('a long thread keeps the author and date of its last reply too', () => {
    const text = extract(page(thread(90)));
    expect(text).toContain('Reply 90:');
    expect(text).toContain(who(90));
    expect(text).toContain(when(90));
  });
});

describe('a post shown apart from its replies', () => {
  const story = `<div class="story-card"><h1>The lamp will not turn</h1><p>${'The lens of my lamp stopped turning last night, just after the first frost, and the clockwork will not wind. '.repeat(5)}</p></div>`;
  const comments = Array.from(
    { length: 6 },
    (
      _,
      i,
    ) => `<li class="comment"><div class="comment-head"><a href="/u/${who(i)}">${who(i)}</a> <time datetime="2024-03-02">${when(i)}</time></div>
    <div class="comment-text"><p>${reply(i)} ${'Keep the tower warm while you work, or the new grease stiffens as fast as the old one did. '.repeat(2)}</p></div></li>`,
  ).join('');
  const html = page(`${story}<ul class="comments">${comments}</ul>`);

  test('where the URL says thread, the replies under a post no longer than a few of them stay', () => {
    const text = extract(html, 'https://board.example.org/post/2113');
    expect(text).toContain('The lens of my lamp stopped turning');
    expect(text).toContain('Reply 0:');
    expect(text).toContain('Reply 5:');
    expect(text).toContain(who(5));
  });

  test('elsewhere they are comments', () => {
    const text = extract(html, 'https://example.org/lamp-will-not-turn');
    expect(text).toContain('The lens of my lamp stopped turning');
    expect(text).not.toContain('Reply 5:');
  });
});

describe('comments under an article', () => {
  const ld =
    '<script type="application/ld+json">{"@context":"https://schema.org","@type":"BlogPosting","headline":"The lamp will not turn"}</script>';
  const story = Array.from(
    { length: 5 },
    (_, i) =>
      `<p>Part ${i + 1} of the story: the keepers of the north light found the lens stopped one winter morning, and spent a week taking the clockwork apart, cleaning each wheel and weight by the stove.</p>`,
  ).join('');
  /** Comments as some blog themes mark them up: schema.org Comment microdata on each. */
  const comment = (i: number) =>
    `<li class="comment"><article class="comment-body" itemscope itemtype="https://schema.org/Comment"><footer><a href="/members/${who(i)}/" itemprop="author">${who(i)}</a> <time itemprop="datePublished" datetime="2024-03-02">${when(i)}</time></footer>
    <div itemprop="text"><p>Comment ${i}: what a story, my grandfather kept a light like this one and told us of the same frozen clockwork every winter.</p></div></article></li>`;

  test('an article with 20 comments marked as schema.org Comments keeps the story and drops the comments', () => {
    const html = page(
      `<article class="post"><h1>The lamp will not turn</h1><div class="post-text">${story}</div></article>
      <section class="responses"><h2>20 thoughts on “The lamp will not turn”</h2><ol class="comment-list">${Array.from({ length: 20 }, (_, i) => comment(i + 1)).join('')}</ol></section>`,
      ld,
    );
    const text = extract(html);
    expect(text).toContain('Part 1 of the story');
    expect(text).toContain('Part 5 of the story');
    for (let i = 1; i <= 20; i++) expect(text).not.toContain(`Comment ${i}:`);
  });

  test('schema.org Comments under a page that calls itself an article but opens with a short question are its replies', () => {
    const html = page(
      `<h1>The lamp will not turn</h1><div class="question"><p>The lens of my lamp stopped turning last night. Has anyone seen this happen after the first frost of the year?</p></div>
      <ol class="answers">${Array.from({ length: 6 }, (_, i) => comment(i + 1)).join('')}</ol>`,
      ld,
    );
    const text = extract(html);
    expect(text).toContain('Comment 1:');
    expect(text).toContain('Comment 6:');
  });

  test('the same post blocks under an article body are its comments: the body comes before them', () => {
    const html = page(`<h1>The lamp will not turn</h1><div class="topic"><div class="story">${story}</div>
      <h2>20 Replies</h2>${Array.from({ length: 20 }, (_, i) => entry('topic-entry', i + 1, reply(i + 1))).join('\n')}</div>`);
    const text = extract(html);
    expect(text).toContain('Part 5 of the story');
    expect(text).not.toContain('Reply 1:');
    expect(text).not.toContain('Reply 20:');
  });
});
