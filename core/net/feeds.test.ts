// Parsing of sitemaps, sitemap indexes, feeds and text sitemaps, and the bounds on hostile input.
import { describe, expect, test } from 'bun:test';
import { gzipSync } from 'node:zlib';
import { parseSitemapDocument, sitemapText, MAX_ENTRIES_PER_DOCUMENT } from './feeds.ts';

const BASE = 'https://example.com/sitemap.xml';

describe('parseSitemapDocument', () => {
  test('a urlset gives locations with lastmod as ISO, entities decoded, fragments dropped', () => {
    const doc = parseSitemapDocument(
      `<?xml version="1.0" encoding="UTF-8"?>
      <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
        <url><loc> https://example.com/a?x=1&amp;y=2 </loc><lastmod>2024-03-01</lastmod><image:image><image:loc>https://example.com/i.png</image:loc></image:image></url>
        <url><loc><![CDATA[https://example.com/b#top]]></loc><lastmod>not a date</lastmod></url>
        <url><loc>mailto:someone@example.com</loc></url>
        <url><lastmod>2024-01-01</lastmod></url>
      </urlset>`,
      BASE,
    );
    expect(doc.kind).toBe('urlset');
    expect(doc.links).toEqual([
      { url: 'https://example.com/a?x=1&y=2', lastmod: '2024-03-01T00:00:00.000Z' },
      { url: 'https://example.com/b' },
    ]);
  });

  test('a sitemap index gives its children', () => {
    const doc = parseSitemapDocument(
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <sitemap><loc>https://example.com/s1.xml</loc></sitemap><sitemap><loc>/s2.xml.gz</loc></sitemap></sitemapindex>`,
      BASE,
    );
    expect(doc).toEqual({ kind: 'sitemapindex', links: [], sitemaps: ['https://example.com/s1.xml', 'https://example.com/s2.xml.gz'] });
  });

  test('RSS 2.0, RSS 1.0 and Atom feeds give links with titles and dates', () => {
    const rss = parseSitemapDocument(
      `<rss version="2.0"><channel><title>Blog</title>
      <item><title>First &amp; best</title><link>https://example.com/p/1</link><pubDate>Mon, 01 Jan 2024 10:00:00 GMT</pubDate></item>
      <item><title>Only a guid</title><guid>https://example.com/p/2</guid></item></channel></rss>`,
      BASE,
    );
    expect(rss.links).toEqual([
      { url: 'https://example.com/p/1', title: 'First & best', lastmod: '2024-01-01T10:00:00.000Z' },
      { url: 'https://example.com/p/2', title: 'Only a guid' },
    ]);
    const rdf = parseSitemapDocument(
      `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
      <channel><title>x</title></channel><item><title>R</title><link>https://example.com/r</link><dc:date>2024-02-02T00:00:00Z</dc:date></item></rdf:RDF>`,
      BASE,
    );
    expect(rdf.links).toEqual([{ url: 'https://example.com/r', title: 'R', lastmod: '2024-02-02T00:00:00.000Z' }]);
    const atom = parseSitemapDocument(
      `<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>
      <entry><title type="html">Atom entry</title><link rel="edit" href="https://example.com/edit"/><link rel="alternate" href="/e/1"/><updated>2024-05-05T05:05:05Z</updated></entry>
      <entry><title>No rel</title><link href="https://example.com/e/2"/><published>2024-06-06T00:00:00Z</published></entry></feed>`,
      BASE,
    );
    expect(atom.links).toEqual([
      { url: 'https://example.com/e/1', title: 'Atom entry', lastmod: '2024-05-05T05:05:05.000Z' },
      { url: 'https://example.com/e/2', title: 'No rel', lastmod: '2024-06-06T00:00:00.000Z' },
    ]);
  });

  test('a text sitemap gives one URL per line; other text gives nothing', () => {
    expect(parseSitemapDocument('https://example.com/1\r\nhttps://example.com/2\n\nnot a url\n', BASE).links.map((l) => l.url)).toEqual([
      'https://example.com/1',
      'https://example.com/2',
    ]);
    expect(parseSitemapDocument('hello world', BASE)).toEqual({ kind: 'unknown', links: [], sitemaps: [] });
  });

  test('broken, foreign or deeply nested XML gives nothing rather than throwing', () => {
    for (const xml of ['<urlset><url><loc>https://e.com/</loc></urlset', '<html><body>hi</body></html>', '<a>'.repeat(10_000)]) {
      const doc = parseSitemapDocument(xml, BASE);
      expect(doc.links.length).toBeLessThanOrEqual(1);
      expect(doc.sitemaps).toEqual([]);
    }
  });

  test('entity expansion bombs are not expanded', () => {
    const lol = (n: number, ref: string) => `<!ENTITY lol${n} "${`&${ref};`.repeat(10)}">`;
    const bomb = `<?xml version="1.0"?><!DOCTYPE s [<!ENTITY lol0 "lol">${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => lol(n, `lol${n - 1}`)).join('')}]>
      <urlset><url><loc>https://example.com/&lol8;</loc></url></urlset>`;
    const doc = parseSitemapDocument(bomb, BASE);
    expect(JSON.stringify(doc).length).toBeLessThan(10_000);
  });

  test(`at most ${MAX_ENTRIES_PER_DOCUMENT} entries are read from one document`, () => {
    const urls = Array.from({ length: MAX_ENTRIES_PER_DOCUMENT + 10 }, (_, i) => `https://example.com/${i}`).join('\n');
    expect(parseSitemapDocument(urls, BASE).links).toHaveLength(MAX_ENTRIES_PER_DOCUMENT);
  });
});

describe('sitemapText', () => {
  test('gunzips gzip bodies and passes others through', async () => {
    expect(await sitemapText(gzipSync('<urlset/>'), 1000)).toBe('<urlset/>');
    expect(await sitemapText(new TextEncoder().encode('<urlset/>'), 1000)).toBe('<urlset/>');
  });

  test('a gzip bomb stops at the cap; broken gzip is an error', async () => {
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(100_000);
    await expect(sitemapText(bomb, 1024 * 1024)).rejects.toThrow('exceeds 1048576 bytes after decompression');
    await expect(sitemapText(new Uint8Array([0x1f, 0x8b, 1, 2, 3]), 1000)).rejects.toThrow('is not valid gzip');
  });
});
