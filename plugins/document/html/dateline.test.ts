// Visible datelines: date formats in text, update dates passed over, where on the page they are looked for.
import { describe, expect, test } from 'bun:test';
import { parseHtmlDocument } from '../../../core/kit.ts';
import { dateInText, readDateline } from './dateline.ts';
import { metaValues, scholarName } from './meta-tags.ts';

describe('dateInText', () => {
  test('English month names either way round, ordinals, abbreviations, ISO and slashed year-first dates', () => {
    expect(dateInText('Posted on March 5, 2024 at 9:15 am')).toBe('2024-03-05');
    expect(dateInText('By Jane Doe | 5th Sept. 2023')).toBe('2023-09-05');
    expect(dateInText('the 1st of June 2022')).toBe('2022-06-01');
    expect(dateInText('Dec 31 1999')).toBe('1999-12-31');
    expect(dateInText('Published: 2021-11-02T10:00')).toBe('2021-11-02');
    expect(dateInText('2020/2/29')).toBe('2020-02-29');
  });

  test('the first date not introduced as an update; impossible dates and bare numbers are none', () => {
    expect(dateInText('Updated: 14 March 2025 · Published 12 March 2025')).toBe('2025-03-12');
    expect(dateInText('Last modified on Jan 2, 2020')).toBeNull();
    expect(dateInText('February 30, 2024')).toBeNull();
    expect(dateInText('05/03/2024 and 12 items')).toBeNull();
  });
});

describe('readDateline', () => {
  const dateline = (body: string) => readDateline(parseHtmlDocument(`<html><body>${body}</body></html>`));

  test('a dateline class, a byline that carries the date, a "Published" line, then a loose .date', () => {
    expect(dateline('<p class="dateline">LONDON, 4 July 2024 —</p>')).toBe('2024-07-04');
    expect(dateline('<div class="byline">By <b>Kim</b> | Oct 9, 2019</div>')).toBe('2019-10-09');
    expect(dateline('<span class="date">1 May 2020</span><div><p>Posted <b>April 2, 2020</b></p></div>')).toBe('2020-04-02');
    expect(dateline('<span class="date">1 May 2020</span>')).toBe('2020-05-01');
    expect(dateline('<time>Aug 8, 2018</time>')).toBe('2018-08-08');
  });

  test("a short element that holds nothing but a date (a blog's date header)", () => {
    expect(dateline('<h2 class="date-header"><span>Thursday, October 18, 2012</span></h2><p>The storm came on October 20, 2012.</p>')).toBe(
      '2012-10-18',
    );
    expect(dateline('<div><b>Posted:</b> 2012-09-18</div>')).toBe('2012-09-18');
  });

  test('text that merely mentions a date is not a dateline', () => {
    expect(dateline('<p>The treaty was signed on 4 July 1776 in Philadelphia.</p>')).toBeNull();
  });

  test('the lead-in walk stops after the first few thousand elements', () => {
    expect(dateline(`${'<i></i>'.repeat(5000)}<p>Published 1 May 2020</p>`)).toBeNull();
  });
});

describe('scholarly meta tags', () => {
  test('repeated tags in page order; "Last, First" names turned round', () => {
    const dom = parseHtmlDocument(
      '<html><head><meta name="citation_author" content="Okafor, Chidi"><meta name="CITATION_AUTHOR" content="Anna Lindqvist"><meta name="citation_author" content=" "></head></html>',
    );
    expect(metaValues(dom, 'citation_author')).toEqual(['Okafor, Chidi', 'Anna Lindqvist']);
    expect(metaValues(dom, 'citation_author').map(scholarName)).toEqual(['Chidi Okafor', 'Anna Lindqvist']);
    expect(scholarName('Doe, Jane, Jr.')).toBe('Doe, Jane, Jr.');
  });
});
