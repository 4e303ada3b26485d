import { describe, expect, test } from 'bun:test';
import { textOf } from '../../../core/kit.ts';
import { mainContentOf } from '../../../test/helpers/html-page.ts';
import { hasDate } from './metalines.ts';

const extract = (html: string, url = 'https://news.example.org/2019/03/05/harbour-board-fog-horn') => textOf(mainContentOf(html, { url }));

const HEADLINE = 'Harbour board keeps the old fog horn for another winter';

/** Paragraphs of a made-up news story about a fog horn. */
const story = (n = 5) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>Paragraph ${i + 1} of the story: the harbour board met on Tuesday evening, heard the keepers, the ferry captains and the fishermen, and agreed that the horn would sound through the winter fogs again.</p>`,
  ).join('\n');

/** Other stories' headlines, as a site lists them. */
const headlines = [
  'Ferry timetable changes after the storm damages the pier',
  'Fishermen protest new quotas outside the town hall',
  'Lighthouse museum reopens with a restored lens',
  'School board approves the new science wing budget',
  'Council delays a vote on the harbour car park plan',
  'Local bakery wins the regional bread prize again',
  'Coast guard rescues two kayakers off the north cape',
  'Road works on the coast road will last until June',
];

const newsPage = (main: string, aside = '') => `<!doctype html><html><head><title>${HEADLINE} | The Harbour Times</title>
  <meta property="og:type" content="article"><meta property="og:title" content="${HEADLINE}"></head><body>
  <div class="site-header"><a href="/">The Harbour Times</a></div>
  <div class="wrapper"><div class="col-a">${main}</div>${aside}</div>
  <div class="site-footer"><p>© 2019 The Harbour Times</p></div></body></html>`;

describe('lists of other stories after the story', () => {
  test('a "Trending" list of headlines with their datelines and bylines goes; the story, its headline and its own lists stay', () => {
    const rows = headlines
      .map((h, i) => `<li><a href="/n${i}">${h}</a><p><span>By Staff Reporter</span> · <time>March ${i + 1}, 2019</time></p></li>`)
      .join('');
    const text = extract(newsPage(`<h1>${HEADLINE}</h1><p>By Jane Roe · March 5, 2019</p>${story()}<h2>Trending</h2><ul>${rows}</ul>`));
    expect(text).toStartWith(`${HEADLINE}\n`);
    expect(text).toContain('Paragraph 5 of the story');
    expect(text).not.toContain('Trending');
    for (const h of headlines) expect(text).not.toContain(h);
    expect(text).not.toContain('Staff Reporter');
    // a list of headlines inside the text, with the story going on after it, and the story's own dated sources stay
    const own = headlines
      .slice(0, 4)
      .map((h, i) => `<li><a href="/n${i}">${h}</a> <time>March ${i + 1}, 2019</time></li>`)
      .join('');
    const inside = extract(
      newsPage(`<h1>${HEADLINE}</h1>${story(3)}<p>The board listed the other decisions of the week:</p><ul>${own}</ul>${story(3)}`),
    );
    expect(inside).toContain(headlines[0]!);
    const sources = extract(newsPage(`<h1>${HEADLINE}</h1>${story(4)}<h3>Sources</h3><ul>${own}</ul>`));
    expect(sources).toContain(headlines[3]!);
    const links = headlines
      .slice(0, 4)
      .map((h, i) => `<li><a href="/p${i}">${h}</a></li>`)
      .join('');
    const resumed = extract(
      newsPage(`<h1>${HEADLINE}</h1>${story(4)}<h3>Also on the harbour</h3><ul>${links}</ul>
      <p>And that is all from the harbour this week: thank you for reading, and write to us with your own memories of the fog horn.</p>`),
    );
    expect(resumed).toContain('thank you for reading');
  });

  test('a breaking-news page: the short story stays, the dozens of timestamped headlines after it go', () => {
    const rows = Array.from(
      { length: 30 },
      (_, i) =>
        `<li><span class="time">${String(9 + Math.floor(i / 4)).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}</span> <a href="/b${i}">${headlines[i % headlines.length]}, update ${i}</a></li>`,
    ).join('');
    const text = extract(
      newsPage(`<span class="label">Breaking news</span><h1>${HEADLINE}</h1>${story(2)}<ul class="stream">${rows}</ul>`),
    );
    expect(text).toContain('Paragraph 2 of the story');
    expect(text).toContain(HEADLINE);
    expect(text).not.toContain('update 3');
    expect(text).not.toContain('09:');
    expect(text).not.toContain('Breaking news');
  });

  test('short relative datelines ("2h ago", "45 mins ago") date a row', () => {
    for (const t of ['2h ago', '45 mins ago', '3 hrs ago', '1 hour ago']) expect(hasDate(t)).toBe(true);
    expect(hasDate('the harbour board, long ago')).toBe(false);
  });
});

describe('a hub page', () => {
  test('the story is taken, not the grid of teasers beside it that outscores it', () => {
    const teaser = (
      h: string,
      i: number,
    ) => `<div class="card"><a href="/t${i}"><img src="/t${i}.jpg" alt=""></a><h3><a href="/t${i}">${h}</a></h3>
      <p>${h}: what it means for the town, its harbour, its shops, its schools, and the families who have lived by the sea, in good years and bad, for generations.</p><span>${i + 1} hours ago</span></div>`;
    const grid = `<div class="col-b"><h2>Top stories</h2>${[1, 2, 3]
      .flatMap((day) => headlines.map((h) => `${h} on day ${day}`))
      .map(teaser)
      .join('')}</div>`;
    const text = extract(
      newsPage(`<div class="head"><h1>${HEADLINE}</h1><p>By Jane Roe</p></div><div class="body">${story(3)}</div>`, grid),
    );
    expect(text).toStartWith(`${HEADLINE}\n`);
    expect(text).toContain('Paragraph 3 of the story');
    expect(text).not.toContain('what it means for the town');
    expect(text).not.toContain('Top stories');
    // a grid of teasers that is the page (a section front), with no story beside it, stays
    const card = (h: string, i: number) =>
      `<div class="card"><h3><a href="/t${i}">${h}</a></h3><p>${h}: what it means for the town, its harbour, its shops, and its schools.</p><span>${i + 1} hours ago</span></div>`;
    const front = `<!doctype html><html><head><title>Local news | The Harbour Times</title><meta property="og:type" content="article"></head><body>
      <div class="wrapper"><h1>Local news</h1><div class="grid">${[...headlines, ...headlines].map(card).join('')}</div></div></body></html>`;
    expect(extract(front, 'https://news.example.org/news/local')).toContain(headlines[7]!);
  });

  test('a grid of teasers set before the story in the page (a left column) is not added to it', () => {
    const teaser = (h: string, i: number) =>
      `<div class="card"><h3><a href="/t${i}">${h}</a></h3><p>${h}: what it means for the town, its harbour, its shops, its schools, and the families who have lived by the sea, in good years and bad.</p></div>`;
    const html = `<!doctype html><html><head><title>${HEADLINE} | The Harbour Times</title><meta property="og:type" content="article"></head><body>
      <div class="wrapper"><div class="col-b">${headlines.slice(0, 6).map(teaser).join('')}</div><div class="col-a"><h1>${HEADLINE}</h1>${story(6)}</div></div></body></html>`;
    const text = extract(html);
    expect(text).toStartWith(`${HEADLINE}\n`);
    expect(text).toContain('Paragraph 6 of the story');
    expect(text).not.toContain('what it means for the town');
  });
});

describe('site chrome above the story', () => {
  test('a "Latest" box of timestamped headlines between the headline and the text goes', () => {
    const rows = headlines
      .slice(0, 5)
      .map((h, i) => `<p><a href="/l${i}">${h}</a> <span>${i + 1}h ago</span></p>`)
      .join('');
    const text = extract(newsPage(`<h1>${HEADLINE}</h1><h4>Latest</h4>${rows}<p>By Jane Roe</p>${story(4)}`));
    expect(text).toStartWith(`${HEADLINE}\n`);
    expect(text).toContain('Paragraph 4 of the story');
    for (const h of headlines.slice(0, 5)) expect(text).not.toContain(h);
  });

  test('edition picker, login and a "Breaking news" label above the headline go; the headline and standfirst stay', () => {
    const chrome = `<div class="bar"><ul><li><a href="/us">US</a></li><li><a href="/uk">UK</a></li><li><a href="/au">Australia</a></li><li><a href="/intl">International</a></li></ul>
      <a href="/login">Login</a></div><p class="flag">Breaking news</p>`;
    const text = extract(
      newsPage(`${chrome}<h1>${HEADLINE}</h1><p class="standfirst">The horn that has warned ships off the rocks for ninety years will sound again this winter.</p>
      <p>4 min read</p><p><a href="#audio">Listen to this article</a></p>${story(4)}`),
    );
    expect(text).toStartWith(`${HEADLINE}\n`);
    expect(text).toContain('The horn that has warned ships');
    for (const gone of ['Australia', 'International', 'Login', 'Breaking news', 'min read', 'Listen to']) expect(text).not.toContain(gone);
  });
});

describe('advertisement labels inside the story', () => {
  test('"Advertisement" and "Story continues below" between the paragraphs go; a sentence about an advertisement stays', () => {
    const text = extract(
      newsPage(`<h1>${HEADLINE}</h1>${story(2)}<div class="slot"><p>Advertisement</p></div>${story(2)}<p>Story continues below advertisement</p>
      <p>The board also approved an advertisement in the harbour gazette, asking for volunteers to help the keepers through the winter months.</p>${story(2)}`),
    );
    expect(text).not.toMatch(/^Advertisement$/m);
    expect(text).not.toContain('Story continues below');
    expect(text).toContain('approved an advertisement in the harbour gazette');
  });
});
