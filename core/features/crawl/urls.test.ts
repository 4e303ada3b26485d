/** Crawl URL identity and crawl scope: which links a crawl follows (the URL rules themselves: core/net/url.test.ts). */
import { describe, expect, test } from 'bun:test';
import { crawlUrl } from './urls.ts';
import { createScope } from './scope.ts';

describe('crawl identity', () => {
  test("the URL module's identity plus the frontier row id, sha256 of the dedupe key", () => {
    const url = crawlUrl('/docs/?b=2&a=1#top', 'http://example.com/start')!;
    expect(url.url).toBe('http://example.com/docs/?b=2&a=1');
    expect(url.host).toBe('example.com');
    expect(url.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(crawlUrl('http://EXAMPLE.com/docs?a=1&b=2#x')!.hash).toBe(url.hash);
    expect(crawlUrl('mailto:a@example.com')).toBeNull();
  });
});

describe('scope', () => {
  const rules = { hosts: ['a.site.test'], allowSubdomains: false, allowExternal: false, include: [], exclude: [] };
  const follows = (scope: ReturnType<typeof createScope>, url: string) => scope(crawlUrl(url)!);

  test('same host only by default, any port, www. or not', () => {
    const scope = createScope(rules);
    expect(follows(scope, 'http://a.site.test/x')).toBe(true);
    expect(follows(scope, 'https://a.site.test:8443/x')).toBe(true);
    expect(follows(scope, 'https://www.a.site.test/x')).toBe(true);
    expect(follows(scope, 'http://b.site.test/x')).toBe(false);
    expect(follows(scope, 'http://other.test/x')).toBe(false);
  });

  test('allow_subdomains compares registrable domains', () => {
    const scope = createScope({ ...rules, allowSubdomains: true });
    expect(follows(scope, 'http://b.site.test/x')).toBe(true);
    expect(follows(scope, 'http://deep.b.site.test/x')).toBe(true);
    expect(follows(scope, 'http://site.test/x')).toBe(true);
    expect(follows(scope, 'http://other.test/x')).toBe(false);
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
    for (const path of ['/a.png', '/b.JPG', '/c.mp4', '/d.woff2', '/e.js', '/f.zip'])
      expect(follows(scope, `http://a.site.test${path}`)).toBe(false);
    for (const path of ['/report.pdf', '/sheet.xlsx', '/letter.docx', '/data.csv', '/page.html', '/dir.v2/'])
      expect(follows(scope, `http://a.site.test${path}`)).toBe(true);
  });
});
