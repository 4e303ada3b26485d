/** URL identity and crawl scope: what dedupes to one page, and which links a crawl follows. */
import { describe, expect, test } from 'bun:test';
import { crawlUrl, MAX_URL_LENGTH } from './urls.ts';
import { createScope, siteOf } from './scope.ts';

const key = (url: string) => crawlUrl(url)?.key;

describe('normalisation', () => {
  test('fragments, default ports, trailing slashes, query order and escape case do not make a new page', () => {
    const same = [
      'http://Example.COM/docs/intro?b=2&a=1',
      'http://example.com:80/docs/intro?a=1&b=2',
      'http://example.com/docs/intro/?a=1&b=2#section',
      'http://example.com/docs//intro/?a=1&b=2'.replace('//intro', '/intro'),
    ];
    expect(new Set(same.map(key)).size).toBe(1);
    expect(key('https://example.com:443/')).toBe(key('https://example.com/'));
    expect(key('http://example.com/a%2fb')).toBe(key('http://example.com/a%2Fb'));
    expect(key('http://example.com/page?')).toBe(key('http://example.com/page'));
  });

  test('what does change the page stays distinct', () => {
    expect(key('http://example.com/a')).not.toBe(key('https://example.com/a'));
    expect(key('http://example.com:8080/a')).not.toBe(key('http://example.com/a'));
    expect(key('http://example.com/a?x=1')).not.toBe(key('http://example.com/a?x=2'));
    expect(key('http://example.com/A')).not.toBe(key('http://example.com/a'));
  });

  test('the fetched URL keeps the link as written, minus its fragment', () => {
    const url = crawlUrl('/docs/?b=2&a=1#top', 'http://example.com/start')!;
    expect(url.url).toBe('http://example.com/docs/?b=2&a=1');
    expect(url.host).toBe('example.com');
    expect(url.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  test('non-http schemes, garbage and absurdly long links are refused', () => {
    expect(crawlUrl('mailto:a@example.com')).toBeNull();
    expect(crawlUrl('javascript:alert(1)')).toBeNull();
    expect(crawlUrl('http://')).toBeNull();
    expect(crawlUrl(`http://example.com/${'a'.repeat(MAX_URL_LENGTH)}`)).toBeNull();
  });
});

describe('scope', () => {
  const rules = { hosts: ['a.site.test'], allowSubdomains: false, allowExternal: false, include: [], exclude: [] };
  const follows = (scope: ReturnType<typeof createScope>, url: string) => scope(crawlUrl(url)!);

  test('same host only by default, any port', () => {
    const scope = createScope(rules);
    expect(follows(scope, 'http://a.site.test/x')).toBe(true);
    expect(follows(scope, 'https://a.site.test:8443/x')).toBe(true);
    expect(follows(scope, 'http://b.site.test/x')).toBe(false);
    expect(follows(scope, 'http://other.test/x')).toBe(false);
  });

  test('allow_subdomains compares registrable domains', () => {
    const scope = createScope({ ...rules, allowSubdomains: true });
    expect(follows(scope, 'http://b.site.test/x')).toBe(true);
    expect(follows(scope, 'http://deep.b.site.test/x')).toBe(true);
    expect(follows(scope, 'http://site.test/x')).toBe(true);
    expect(follows(scope, 'http://other.test/x')).toBe(false);
    expect(siteOf('news.bbc.co.uk')).toBe('bbc.co.uk');
    // Different people's sites under one public suffix are not subdomains of each other.
    const pages = createScope({ ...rules, hosts: ['alice.github.io'], allowSubdomains: true });
    expect(follows(pages, 'http://bob.github.io/')).toBe(false);
    const ip = createScope({ ...rules, hosts: ['127.0.0.1'], allowSubdomains: true });
    expect(follows(ip, 'http://127.0.0.2/')).toBe(false);
  });

  test('allow_external_links follows any host', () => {
    const scope = createScope({ ...rules, allowExternal: true });
    expect(follows(scope, 'http://other.test/x')).toBe(true);
  });

  test('include and exclude globs match the path; exclusion wins; bare patterns are rooted', () => {
    const scope = createScope({ ...rules, include: ['/blog/**', 'docs/*'], exclude: ['/blog/drafts/**'] });
    expect(follows(scope, 'http://a.site.test/blog/2026/post')).toBe(true);
    expect(follows(scope, 'http://a.site.test/docs/intro')).toBe(true);
    expect(follows(scope, 'http://a.site.test/docs/intro/deeper')).toBe(false);
    expect(follows(scope, 'http://a.site.test/blog/drafts/x')).toBe(false);
    expect(follows(scope, 'http://a.site.test/news/x')).toBe(false);
    const encoded = createScope({ ...rules, include: ['/café/*'] });
    expect(follows(encoded, 'http://a.site.test/caf%C3%A9/menu')).toBe(true);
  });

  test('images, media, fonts, scripts and archives are not followed; documents are', () => {
    const scope = createScope(rules);
    for (const path of ['/a.png', '/b.JPG', '/c.mp4', '/d.woff2', '/e.js', '/f.zip']) expect(follows(scope, `http://a.site.test${path}`)).toBe(false);
    for (const path of ['/report.pdf', '/sheet.xlsx', '/letter.docx', '/data.csv', '/page.html', '/dir.v2/']) expect(follows(scope, `http://a.site.test${path}`)).toBe(true);
  });
});
