import { describe, expect, test } from 'bun:test';
import { socialProfile } from './socials.ts';

describe('social profiles', () => {
  test('profiles by network; share dialogs, posts and intents are not profiles', () => {
    expect(socialProfile('https://www.linkedin.com/company/acme/?trk=x')).toEqual({
      network: 'linkedin',
      url: 'https://linkedin.com/company/acme',
    });
    expect(socialProfile('https://x.com/acme')).toEqual({ network: 'x', url: 'https://x.com/acme' });
    expect(socialProfile('https://www.facebook.com/profile.php?id=123&ref=x')).toEqual({
      network: 'facebook',
      url: 'https://facebook.com/profile.php?id=123',
    });
    for (const href of [
      'https://www.facebook.com/sharer/sharer.php?u=x',
      'https://twitter.com/intent/tweet',
      'https://www.linkedin.com/shareArticle?url=x',
      'https://www.instagram.com/p/abc/',
      'https://www.youtube.com/watch?v=1',
      '/about',
      'mailto:a@b.c',
    ]) {
      expect([href, socialProfile(href)]).toEqual([href, null]);
    }
  });
});
