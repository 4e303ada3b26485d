import { expect, test } from 'bun:test';
import { textOf } from '../../../core/kit.ts';
import { mainContentOf } from '../../../test/helpers/html-page.ts';

const post = (name: string, date: string, body: string) => `<article class="message message--post">
  <div class="message-cell message-cell--user"><section class="message-user">
    <div class="message-userDetails"><h4 class="message-name"><a class="username">${name}</a></h4><h5 class="userTitle">Well-known member</h5></div>
    <div class="message-userExtras"><dl><dt>Joined</dt><dd>Feb 8, 2023</dd></dl><dl><dt>Messages</dt><dd>512</dd></dl></div>
  </section></div>
  <div class="message-cell message-cell--main"><header class="message-attribution">
    <ul class="message-attribution-main"><li><a><time class="u-dt">${date}</time></a></li></ul>
  </header><div class="message-content"><article class="message-body"><div class="bbWrapper">${body}</div></article></div></div>
</article>`;

test('a thread keeps each post author and date, not the profile card', () => {
  const body = (s: string) =>
    `${s} I have been reading about this for a while, and the answers here helped a lot, so thank you all for taking the time.`.repeat(3);
  const html = `<html><head><title>Best closed headphones</title></head><body><div class="p-body">
    ${post('FutureBSD', 'Jul 5, 2024', body('Which closed headphones have the widest stage?'))}
    ${post('PinkyPowers', 'Jul 6, 2024', body('Consider the ZMF Atrium Closed, it sounds open.'))}
  </div></body></html>`;
  const text = textOf(mainContentOf(html, { url: 'https://example.org/threads/best-closed.1/' }));
  for (const kept of ['FutureBSD', 'Jul 5, 2024', 'PinkyPowers', 'Jul 6, 2024', 'widest stage', 'ZMF Atrium']) expect(text).toContain(kept);
  for (const gone of ['Joined', 'Well-known member', '512']) expect(text).not.toContain(gone);
});

test('an author whose name starts with the previous author\'s ("Pinky", "PinkyPowers") is another author, not the same header given twice', () => {
  const body = (s: string) =>
    `${s} I have been reading about this for a while, and the answers here helped a lot, so thank you all for taking the time.`.repeat(3);
  // (names only: a phpBB profile card's first <dt> is the author, with no date line between two authors)
  const card = (name: string, text: string) =>
    `<div class="post"><dl class="postprofile"><dt><a href="/memberlist.php?mode=viewprofile&u=1">${name}</a></dt><dd>Posts: 12</dd></dl><div class="postbody"><div class="content">${body(text)}</div></div></div>`;
  const html = `<html><head><title>Best closed headphones</title><meta name="generator" content="phpBB"></head><body><div id="page-body">
    ${card('Pinky', 'Which closed headphones have the widest stage?')}${card('PinkyPowers', 'Consider the ZMF Atrium Closed, it sounds open.')}
  </div></body></html>`;
  const text = textOf(mainContentOf(html, { url: 'https://example.org/viewtopic.php?t=1' }));
  expect(text).toContain('PinkyPowers');
});
