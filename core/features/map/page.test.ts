// What map reads from the start page: title, links with their text, announced feeds, <base>.
import { expect, test } from 'bun:test';
import { readStartPage } from './page.ts';

test('links resolve against <base>, take text, title or image alt, and skip non-http schemes', () => {
  const page = readStartPage(`<html><head><title>  The
    page </title><base href="/docs/"></head><body>
    <a href="intro#x">Intro</a> <a href="a" title="Titled"></a> <a href="b"><img alt="Pictured"></a> <a href="c"></a>
    <a href="javascript:void(0)">js</a> <a href="mailto:x@y.z">mail</a> <a href="http://[bad">bad</a></body></html>`, 'https://example.com/start');
  expect(page.title).toBe('The page');
  expect(page.links).toEqual([
    { url: 'https://example.com/docs/intro', title: 'Intro' },
    { url: 'https://example.com/docs/a', title: 'Titled' },
    { url: 'https://example.com/docs/b', title: 'Pictured' },
    { url: 'https://example.com/docs/c' },
  ]);
});

test('feeds are the rel=alternate links of feed types only', () => {
  const page = readStartPage(`<head>
    <link rel="alternate" type="application/rss+xml" href="/rss"><link rel="alternate  feed" type="application/atom+xml" href="https://example.com/atom">
    <link rel="alternate" hreflang="de" href="/de/"><link rel="alternate" type="text/html" href="/print"><link rel="stylesheet" type="application/rss+xml" href="/no">
    </head>`, 'https://example.com/');
  expect(page.feeds).toEqual(['https://example.com/rss', 'https://example.com/atom']);
  expect(page.title).toBeUndefined();
});
