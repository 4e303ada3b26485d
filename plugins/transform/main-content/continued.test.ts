import { expect, test } from 'bun:test';
import { textOf } from '../../../core/kit.ts';
import { mainContentOf } from '../../../test/helpers/html-page.ts';

const extract = (html: string) => textOf(mainContentOf(html));
const blurb = (n: number) =>
  `Show ${n} talks with builders about their craft, their tools and their mistakes, every week, in long and friendly conversations.`;
// (each row's <div> sits in a <p>, as the directory's template writes it: the parse closes the <p> at the <div>)
// (some descriptions are markup pasted from the show's own site, stray end tags and all)
const row = (n: number, about = `<p>${blurb(n)}</p>`) =>
  `<p><div class="show-row py-3"><h3><a href="/shows/${n}">Show number ${n}</a></h3></div></p>\n${about}`;
const menu = `<nav class="menu">${Array.from({ length: 8 }, (_, i) => `<a href="/c/${i}">Category ${i}</a>`).join(' ')}</nav>`;

test("a directory whose stray end tags closed its list early: the rows after the break are gathered, the site's footer is not", () => {
  // row 8's pasted description ends in three stray </div>s: they close the list, its column and the columns'
  // row, so rows 9-12 land as siblings of that row, two levels above the block scoring picks
  const rows =
    [1, 2, 3, 4, 5, 6, 7].map((n) => row(n)).join('\n') +
    row(8, `<p>${blurb(8)}</div></div></div></p>`) +
    [9, 10, 11, 12].map((n) => row(n, `<div class="pasted-about">${blurb(n)}</div>`)).join('\n');
  const html = `<html><head><title>Technology shows</title></head><body><header>${menu}</header>
    <main><section class="shows-area"><div class="columns"><div class="column-side"><h3>Newsletter</h3><p>Sign up for our weekly newsletter.</p></div>
      <div class="column-main"><h2>All shows on this page</h2><div class="shows-list">${rows}</div></div>
    </div></section></main>
    <footer class="site-footer"><p>Copyright Example Network. Contact us for advertising, partnerships and more.</p></footer></body></html>`;
  const text = extract(html);
  for (const n of [1, 8, 9, 10, 12]) expect(text).toContain(`Show ${n} talks with builders`);
  expect(text).not.toContain('Contact us for advertising');
  expect(text).not.toContain('Category 3');
});

test('an article followed by a related-links list and a comment thread: neither is gathered', () => {
  const para = (i: number) =>
    `<p class="story-text">Paragraph ${i} of the story explains, with care and detail, how the river flooded the valley and what the town did next.</p>`;
  // (unheaded link rows of the body's paragraph kind: their links set them apart)
  const teaser = (i: number) => `<p class="story-text"><a href="/story/${i}">Another story number ${i} you might like to read</a></p>`;
  const comment = (i: number) =>
    `<div class="reply-item"><p>Reader ${i} wrote: what a story, thanks for writing it up, I was there that night too and remember it well.</p></div>`;
  const html = `<html><head><title>The flood</title></head><body><header>${menu}</header>
    <main><article class="story"><h1>The flood</h1><p class="byline">By A. Writer</p>
      <div class="story-body">${Array.from({ length: 8 }, (_, i) => para(i + 1)).join('')}</div>
      ${Array.from({ length: 6 }, (_, i) => teaser(i + 1)).join('')}
      <div class="more-stories"><h2>More from the valley</h2><ul>${Array.from({ length: 6 }, (_, i) => `<li class="story-text"><a href="/valley/${i}">Valley story ${i} from our archive pages</a></li>`).join('')}</ul></div>
      <div class="responses"><h2>Discussion</h2>${[1, 2, 3].map(comment).join('')}</div>
    </article></main></body></html>`;
  const text = extract(html);
  expect(text).toContain('Paragraph 1 of the story');
  expect(text).toContain('Paragraph 8 of the story');
  for (const left of ['Another story number', 'Valley story', 'Reader 2 wrote']) expect(text).not.toContain(left);
});
