// The proxy router and its configuration: rotation rules (sticky with a clock), the choices a
// request may name, the /v2 mapping checked at boot, proxy URLs checked without echoing them.
import { describe, expect, test } from 'bun:test';
import { loadConfig } from '../config.ts';
import { TrawlError } from '../errors.ts';
import { checkProxyReferences, ProxyRouter, redactProxy } from './proxies.ts';

const A = 'http://u:pw-a@10.0.0.1:3128';
const B = 'socks5://u:pw-b@10.0.0.2:1080';
const C = 'https://10.0.0.3:8443';

function router(rotation: 'round-robin' | 'random' | 'sticky', now = () => 0) {
  return new ProxyRouter({ proxy: 'http://corp:8080', proxies: { office: { urls: [A, B, C], rotation, stickySeconds: 60 } } }, now);
}

describe('routes', () => {
  test('unset and "auto" take the default proxy, "none" goes direct, a pool gives one of its own', () => {
    const r = router('round-robin');
    expect(r.route(undefined, 'a.example')).toEqual({ label: 'default', url: 'http://corp:8080' });
    expect(r.route('auto', 'a.example').url).toBe('http://corp:8080');
    expect(r.route('none', 'a.example')).toEqual({ label: 'direct', url: null });
    expect([1, 2, 3, 4].map(() => r.route('office', 'a.example').url)).toEqual([A, B, C, A]);
    expect(new ProxyRouter({ proxies: {} }).route(undefined, 'a.example').url).toBeNull();
  });

  test('sticky keeps a host on its proxy until stickySeconds pass, other hosts get the next', () => {
    let now = 0;
    const r = router('sticky', () => now);
    const first = r.route('office', 'a.example').url;
    expect(r.route('office', 'A.EXAMPLE').url).toBe(first);
    expect(r.route('office', 'b.example').url).not.toBe(first);
    now = 59_000;
    expect(r.route('office', 'a.example').url).toBe(first);
    now = 61_000;
    expect(r.route('office', 'a.example').url).not.toBe(first);
  });

  test('random stays inside the pool', () => {
    const r = router('random');
    const seen = new Set(Array.from({ length: 60 }, () => r.route('office', 'a.example').url));
    expect([...seen].sort()).toEqual([A, B, C].sort());
  });

  test('choices: unknown pools are named with the ones there are', () => {
    expect(router('random').problem('residential')).toBe('unknown proxy pool "residential" (use "none", "auto" or one of: "office")');
    expect(new ProxyRouter({ proxies: {} }).problem('x')).toBe(
      'unknown proxy pool "x" (use "none", "auto"; no pools are configured in [fetch.proxies])',
    );
    expect(router('random').problem('none')).toBeNull();
  });
});

describe('configuration', () => {
  const load = (fetch: Record<string, unknown>, v2?: Record<string, unknown>) =>
    loadConfig({ plugins: [], defaultFile: null, env: {}, overrides: { fetch, ...(v2 ? { v2 } : {}) } as never });

  test('proxy URLs are checked, and the message never repeats them', () => {
    const bad = (proxy: string) => {
      try {
        load({ proxy });
      } catch (err) {
        expect(String((err as Error).message)).not.toContain('hunter2');
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(bad('ftp://u:hunter2@proxy:21')).toContain('proxy URL has scheme ftp:');
    expect(bad('http://u:hunter2@proxy:8080/path')).toContain('must be scheme://[user:password@]host:port');
    expect(bad('not a url hunter2')).toContain('proxy URL is not a URL');
    expect(load({ proxy: 'socks5h://u:p@proxy:1080' }).fetch.proxy).toBe('socks5h://u:p@proxy:1080');
  });

  test('pools: reserved names, at least one URL, rotation names', () => {
    expect(() => load({ proxies: { auto: { urls: [A] } } })).toThrow(/reserved/);
    expect(() => load({ proxies: { office: { urls: [] } } })).toThrow();
    expect(() => load({ proxies: { office: { urls: [A], rotation: 'lru' } } })).toThrow();
    expect(load({ proxies: { office: { urls: [A] } } }).fetch.proxies.office).toEqual({
      urls: [A],
      rotation: 'round-robin',
      stickySeconds: 600,
    });
  });

  test('[v2.proxies] must name pools that exist', () => {
    const config = load({ proxies: { office: { urls: [A] } } }, { proxies: { stealth: 'residential' } });
    const err = (() => {
      try {
        checkProxyReferences(config, new ProxyRouter(config.fetch));
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(TrawlError);
    expect((err as TrawlError).message).toBe(
      'Invalid configuration at v2.proxies.stealth: unknown proxy pool "residential" (use "none", "auto" or one of: "office")',
    );
  });

  test('redaction keeps scheme, host and port only', () => {
    expect(redactProxy(A)).toBe('http://10.0.0.1:3128');
    expect(redactProxy('socks5h://user:p%40ss@[::1]:1080')).toBe('socks5h://[::1]:1080');
  });
});
