import { describe, expect, test } from 'bun:test';
import { isAuthorBio, isDisclosure } from './notices.ts';

describe('isDisclosure', () => {
  test('a site speaking of its own affiliate links is a disclosure', () => {
    expect(isDisclosure('This post may contain affiliate links. Read more on my About page!')).toBe(true);
    expect(
      isDisclosure('Every item on this page was chosen by an editor. We may earn commission on some of the items you choose to buy.'),
    ).toBe(true);
    expect(isDisclosure('Purchases made through links earn us a small commission, at no extra cost to you.')).toBe(true);
    expect(isDisclosure('As an Amazon Associate I earn from qualifying purchases.')).toBe(true);
  });

  test('prose about affiliate marketing is not', () => {
    expect(isDisclosure('To measure the outcomes of these partnerships, implement affiliate links, UTM tracking and discount codes.')).toBe(
      false,
    );
    expect(isDisclosure('Affiliate programs: streamers earn a commission when viewers buy games via affiliate links.')).toBe(false);
  });
});

describe('isAuthorBio', () => {
  test('a name introduced as a writer is a bio', () => {
    expect(isAuthorBio('Mark di Stefano is a breaking news reporter for BuzzFeed News and is based in Sydney.')).toBe(true);
    expect(isAuthorBio('Julia Gralberg is a freelance travel writer and editor of a hotel guide.')).toBe(true);
  });

  test('other sentences about people or firms are not', () => {
    expect(isAuthorBio('Liberty Mutual Group is a Boston-based mutual insurer and one of the largest property and casualty writers.')).toBe(
      false,
    );
    expect(isAuthorBio('The author is a writer.')).toBe(false);
  });
});
