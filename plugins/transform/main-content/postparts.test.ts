import { describe, expect, test } from 'bun:test';
import { textOf } from '../../../core/kit.ts';
import { mainContentOf } from '../../../test/helpers/html-page.ts';

const extract = (html: string) => textOf(mainContentOf(html, { url: 'https://forum.example.org/viewtopic.php?t=7' }));

/** A phpBB thread: each post a profile card, a header line, its text, and what `extra` adds. */
const thread = (posts: Array<{ who: string; text: string; extra?: string }>) =>
  `<html><head><title>Lamp will not turn</title><meta name="generator" content="phpBB"></head><body><div id="page-body"><h2>Lamp will not turn</h2>
  ${posts
    .map(
      (
        p,
        i,
      ) => `<div class="post"><dl class="postprofile"><dt><a href="/memberlist.php?mode=viewprofile&u=${i}">${p.who}</a></dt><dd>Posts: 12</dd></dl>
    <div class="postbody"><p class="author">by ${p.who} » Sat Feb 24, 2024 12:4${i} pm</p>${p.extra ?? ''}<div class="content">${p.text}</div></div></div>`,
    )
    .join('\n')}
  </div></body></html>`;

const words = 'The lens of my lamp stopped turning last night, just after the first frost, and I have tried the usual fixes.';

describe("a thread's posts", () => {
  test("a post's number, vote count and likes, standing alone, go; a number in a sentence stays", () => {
    const text = extract(
      thread([
        { who: 'keeper1', text: words, extra: '<div class="votes">14</div><ul class="tools"><li><a href="#p1">#1</a></li></ul>' },
        {
          who: 'keeper2',
          text: 'Juror <em>#2</em> said the weights jam in the cold; oil them and wind the clockwork slowly, a turn at a time.',
          extra: '<div class="votes">7</div><div class="likes"><span>2 Likes</span></div>',
        },
      ]),
    );
    expect(text).toContain('The lens of my lamp');
    expect(text).toContain('Juror #2 said');
    expect(text).not.toMatch(/^(?:14|7|#1|2 Likes)$/m);
  });

  test('a reply\'s "Re:" subject repeating the thread\'s title goes; a subject of its own stays', () => {
    const text = extract(
      thread([
        { who: 'keeper1', text: words, extra: '<h3>Lamp will not turn</h3>' },
        { who: 'keeper2', text: `${words} Try the weights.`, extra: '<h3><a href="#p2">Re: Lamp will not turn</a></h3>' },
        { who: 'keeper3', text: `${words} Oil them first.`, extra: '<h3>Re: the clockwork weights</h3>' },
      ]),
    );
    expect(text).toContain('Try the weights.');
    expect(text).not.toContain('Re: Lamp will not turn');
    expect(text).toContain('Re: the clockwork weights');
  });

  test('a date given long and short in one <time> is read once, the long way', () => {
    const time = (d: string) =>
      `<time datetime="2024-08-26T16:29:31Z"><span class="t-long">${d}</span><span class="t-short">1 yr</span></time>`;
    const text = extract(
      thread([
        { who: 'keeper1', text: words, extra: time('August 26, 2024') },
        { who: 'keeper2', text: `${words} Oil the weights.`, extra: time('August 27, 2024') },
      ]),
    );
    expect(text).toContain('August 27, 2024');
    expect(text).not.toContain('1 yr');
  });

  test("a reply's preview of the post it answers, clamped to a line, is left out: the post is on the page", () => {
    const first = `${words} The weights hang still and the oil is thick as honey in the cold of the lamp room, and the lens will not move an inch. ${words}`;
    const text = extract(
      thread([
        { who: 'keeper1', text: first },
        {
          who: 'keeper2',
          text: 'Warm the oil by the stove before you pour it, and wind the clockwork a turn at a time.',
          extra: `<div class="parent text-muted line-clamp-1"><p>${first}</p></div>`,
        },
      ]),
    );
    expect(text).toContain('Warm the oil by the stove');
    expect(text.split('thick as honey').length - 1).toBe(1);
  });

  test("screen-reader-only labels (XenForo's u-srOnly) are not shown, so not read", () => {
    const text = extract(
      thread([
        { who: 'keeper1', text: words, extra: '<ul class="listInline"><li><span class="u-srOnly">Thread starter</span> keeper1</li></ul>' },
        { who: 'keeper2', text: `${words} Oil the weights.` },
      ]),
    );
    expect(text).toContain('Oil the weights.');
    expect(text).not.toContain('Thread starter');
  });

  test('a code box\'s bar ("Code: Select all") works the box; the code stays', () => {
    const code =
      '<div class="codebox"><p>Code: <a href="#" onclick="selectCode(this); return false;">Select all</a></p><pre><code>lamp.wind(turns=3)</code></pre></div>';
    const text = extract(
      thread([
        { who: 'keeper1', text: words },
        { who: 'keeper2', text: `${words} Wind it like this:${code}` },
      ]),
    );
    expect(text).toContain('lamp.wind(turns=3)');
    expect(text).not.toContain('Select all');
  });

  test("a poster's card keeps the name and loses rank, join date and post count; a form label without its control goes", () => {
    const card = (who: string, rank: string) =>
      `<div class="postleft"><dl><dt><strong>${who}</strong></dt><dd class="usertitle"><strong>${rank}</strong></dd><dd><span>Registered: 2016-07-02</span></dd><dd><span>Posts: 710</span></dd></dl></div>`;
    const text = extract(
      thread([
        {
          who: 'keeper1',
          text: words,
          extra: `${card('lampwright', 'The Evil Wiki Admin')}<label for="sort">Sorted by:</label><select id="sort"><option>Date</option></select>`,
        },
        { who: 'keeper2', text: `${words} Oil the weights.`, extra: card('oilcan', 'Member') },
      ]),
    );
    expect(text).toContain('lampwright');
    expect(text).toContain('oilcan');
    expect(text).not.toContain('Registered:');
    expect(text).not.toContain('Posts: 710');
    expect(text).not.toContain('The Evil Wiki Admin');
    expect(text).not.toContain('Sorted by:');
  });

  test('a post that lists the links its poster pasted keeps them, however link-dense', () => {
    const links = [
      'https://lighthouses.example.org/manual/clockwork',
      'https://keepers.example.net/forum/lens-weights',
      'https://archive.example.com/1903/lamp-maintenance',
    ]
      .map((u) => `<a href="${u}">${u}</a>`)
      .join('<br>');
    const replies = [2, 3, 4].map((i) => ({ who: `keeper${i}`, text: `${words} ${words}` }));
    const text = extract(thread([{ who: 'keeper1', text: words }, { who: 'keeper5', text: `Sources:<br>${links}` }, ...replies]));
    expect(text).toContain('https://keepers.example.net/forum/lens-weights');
    expect(text).toContain('https://archive.example.com/1903/lamp-maintenance');
  });
});
