import { describe, expect, test } from 'bun:test';
import { parseHtmlDocument } from '../../../core/kit.ts';
import { decodeCfEmail, defaultCountry, findEmails, findPhones, pageText } from './contacts.ts';
import { likelyPages } from './pages.ts';

const page = (body: string) => parseHtmlDocument(`<!doctype html><html><body>${body}</body></html>`);
const emailsOf = (body: string) => {
  const dom = page(body);
  return findEmails(dom, pageText(dom.body));
};

describe('default country', () => {
  test('the language region first, then the country-code domain, then the language', () => {
    expect(defaultCountry('de-CH', 'www.example.de')).toBe('CH');
    expect(defaultCountry('de', 'www.example.at')).toBe('AT');
    expect(defaultCountry('en', 'shop.example.co.uk')).toBe('GB');
    expect(defaultCountry('fr', 'example.com')).toBe('FR');
    expect(defaultCountry(null, 'example.com')).toBeUndefined();
    expect(defaultCountry('en', 'example.io')).toBe('IO');
  });
});

describe('e-mail addresses', () => {
  test('mailto links (encoded, with a query, several), then text, then obfuscated text; once each', () => {
    expect(
      emailsOf(`<a href="mailto:Sales%40Example.COM?subject=Hi">write</a> <a href="MAILTO:a@example.com,b@example.com">both</a>
      <p>or sales@example.com</p><p>jobs [at] example [dot] com · press(at)example.com · Team AT example DOT org</p>`),
    ).toEqual(['Sales@example.com', 'a@example.com', 'b@example.com', 'jobs@example.com', 'press@example.com', 'Team@example.org']);
  });

  test('Cloudflare-protected addresses are decoded; image names and words without a domain are not addresses', () => {
    const hex = [0x17, ...[...'info@example.net'].map((c) => c.charCodeAt(0) ^ 0x17)].map((b) => b.toString(16).padStart(2, '0')).join('');
    expect(decodeCfEmail(hex)).toBe('info@example.net');
    expect(decodeCfEmail('zz')).toBeNull();
    expect(
      emailsOf(
        `<span data-cfemail="${hex}">[email protected]</span><img alt="logo@2x.png"><p>logo@2x.png, meet us at the fair, user@localhost</p>`,
      ),
    ).toEqual(['info@example.net']);
  });

  test('text nodes are kept apart: an address next to a link does not swallow its text', () => {
    expect(emailsOf('<p>info@example.de</p><a href="/impressum">Impressum</a>')).toEqual(['info@example.de']);
  });
});

describe('phone numbers', () => {
  test('tel: links and text in E.164 with the default country; postcodes and register numbers are not numbers', () => {
    const dom = page(`<a href="tel:+49%2030%201234567">call</a><p>Telefon: 030 98765432</p><p>London +44 20 7946 0958</p>
      <p>10115 Berlin, HRB 123456 B, USt-IdNr. DE123456789, founded 2011</p>`);
    expect(findPhones(dom, pageText(dom.body), 'DE')).toEqual(['+49301234567', '+493098765432', '+442079460958']);
  });

  test('without a default country only international numbers count', () => {
    const dom = page('<p>030 98765432 or +1 415 555 2671</p>');
    expect(findPhones(dom, pageText(dom.body), undefined)).toEqual(['+14155552671']);
  });
});

describe('likely pages', () => {
  test('one link per kind on the same site, by path or link text, the shortest path winning', () => {
    const dom =
      page(`<a href="/de/kontakt">Schreiben Sie uns</a><a href="/de/kontakt/anfahrt">Anfahrt</a><a href="/mentions-legales">Mentions</a>
      <a href="/company/team/">People</a><a href="/qui-sommes-nous">Qui sommes-nous</a><a href="https://other.example/about">About</a>
      <a href="/blog/about-our-new-office">News</a><a href="/x">Über uns</a>`);
    expect(likelyPages(dom, 'https://www.acme.example/', 'https://www.acme.example/')).toEqual([
      { kind: 'contact', url: 'https://www.acme.example/de/kontakt' },
      { kind: 'imprint', url: 'https://www.acme.example/mentions-legales' },
      { kind: 'about', url: 'https://www.acme.example/x' },
      { kind: 'team', url: 'https://www.acme.example/company/team/' },
    ]);
  });
});
