import { describe, expect, test } from 'bun:test';
import { isDisclosure } from './notices.ts';

describe('isDisclosure', () => {
  test('a site speaking of its own affiliate links is a disclosure', () => {
    expect(isDisclosure('This post may contain affiliate links. Read more on my About page!')).toBe(true);
    expect(isDisclosure('Every item on this page was chosen by an editor. We may earn commission on some of the items you choose to buy.')).toBe(true);
    expect(isDisclosure('Purchases made through links earn us a small commission, at no extra cost to you.')).toBe(true);
    expect(isDisclosure('As an Amazon Associate I earn from qualifying purchases.')).toBe(true);
  });

  test('prose about affiliate marketing is not', () => {
    expect(isDisclosure('To measure the outcomes of these partnerships, implement affiliate links, UTM tracking and discount codes.')).toBe(false);
    expect(isDisclosure('Affiliate programs: streamers earn a commission when viewers buy games via affiliate links.')).toBe(false);
  });
});
