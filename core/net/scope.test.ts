/** Site scope modes shared by crawl and map: same host (www. ignored), registrable domain, any. */
import { describe, expect, test } from 'bun:test';
import { scopeMode, siteOf, siteScope } from './scope.ts';

describe('site scope', () => {
  test('host: the same host, any port, www. or not, nothing else', () => {
    const inScope = siteScope(['example.com'], 'host');
    for (const host of ['example.com', 'EXAMPLE.com', 'www.example.com']) expect(inScope(host)).toBe(true);
    for (const host of ['blog.example.com', 'example.org', 'wwwexample.com', 'www.blog.example.com']) expect(inScope(host)).toBe(false);
    expect(siteScope(['www.example.com'], 'host')('example.com')).toBe(true);
  });

  test('domain: subdomains share the registrable domain; private suffixes and IPs keep sites apart', () => {
    const inScope = siteScope(['a.site.test'], 'domain');
    for (const host of ['b.site.test', 'deep.b.site.test', 'site.test']) expect(inScope(host)).toBe(true);
    expect(inScope('other.test')).toBe(false);
    expect(siteScope(['example.co.uk'], 'domain')('blog.example.co.uk')).toBe(true);
    expect(siteScope(['example.co.uk'], 'domain')('other.co.uk')).toBe(false);
    expect(siteScope(['alice.github.io'], 'domain')('bob.github.io')).toBe(false);
    expect(siteScope(['127.0.0.1'], 'domain')('127.0.0.2')).toBe(false);
    expect(siteScope(['127.0.0.1'], 'domain')('127.0.0.1')).toBe(true);
    expect(siteOf('news.bbc.co.uk')).toBe('bbc.co.uk');
    expect(siteOf('localhost')).toBe('localhost');
  });

  test('any: every host; several start hosts (a redirect) all count', () => {
    expect(siteScope(['a.test'], 'any')('elsewhere.example')).toBe(true);
    const redirected = siteScope(['old.test', 'new.example'], 'host');
    expect([redirected('old.test'), redirected('www.new.example'), redirected('third.test')]).toEqual([true, true, false]);
  });

  test('the request flags pick the mode; external wins over subdomains', () => {
    expect([scopeMode({}), scopeMode({ subdomains: true }), scopeMode({ external: true, subdomains: true })]).toEqual([
      'host',
      'domain',
      'any',
    ]);
  });
});
