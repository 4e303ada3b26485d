import { describe, expect, test } from 'bun:test';
import type { ScanHit } from '../../plugin.ts';
import { EndpointCollector, endpointValue } from './classify.ts';

const collect = (hits: ScanHit[], includeThirdParty = false) => {
  const collector = new EndpointCollector('https://www.shop.co.uk/cart', includeThirdParty, 100);
  for (const hit of hits) collector.add(hit, 'main.js');
  return collector.result();
};
const request = (value: string, api: ScanHit['api'] = 'fetch'): ScanHit => ({ value, position: 'request', api });
const literal = (value: string): ScanHit => ({ value, position: 'literal' });

describe('endpoint classification', () => {
  test('values: query and fragment dropped, a run-time base leaves its path, nothing left is nothing', () => {
    expect(endpointValue('/api/a?x=1#y')?.value).toBe('/api/a');
    expect(endpointValue('{base}/users/{id}')?.value).toBe('/users/{id}');
    expect(endpointValue('{protocol}//{host}/live')?.value).toBe('/live');
    expect(endpointValue('{base}-/app/users')?.value).toBe('/-/app/users');
    expect(endpointValue('{base}')).toBeNull();
    expect(endpointValue('wss://{host}/live')).toEqual({ value: '/live', scheme: 'wss', path: '/live' });
    expect(endpointValue('?page=2')).toBeNull();
    expect(endpointValue('https://api.shop.co.uk:8443/v1')).toMatchObject({ host: 'api.shop.co.uk', path: '/v1' });
    expect(endpointValue('https://not a host/x')).toBeNull();
  });

  test('kinds, first party by registrable domain, third parties only when asked, assets never', () => {
    const hits = [
      request('/api/cart'),
      request('https://api.shop.co.uk/v1/items'),
      request('https://shop.co.uk/graphql'),
      request('/live', 'websocket'),
      request('wss://push.shop.co.uk/socket'),
      request('https://api.other.co.uk/v1/track'),
      request('/img/logo.png'),
      request('/fonts/a.woff2?v=2'),
      request('https://cdn.shop.co.uk/app.css'),
    ];
    expect(collect(hits).endpoints.map((e) => `${e.kind} ${e.first_party} ${e.value}`)).toEqual([
      'relative_path true /api/cart',
      'absolute_url true https://api.shop.co.uk/v1/items',
      'graph_ql true https://shop.co.uk/graphql',
      'web_socket true /live',
      'web_socket true wss://push.shop.co.uk/socket',
    ]);
    const all = collect(hits, true);
    expect(all.endpoints.map((e) => `${e.first_party} ${e.value}`)).toContain('false https://api.other.co.uk/v1/track');
    expect(all.hosts).toEqual(['www.shop.co.uk', 'api.shop.co.uk', 'shop.co.uk', 'push.shop.co.uk', 'api.other.co.uk']);
  });

  test('literals and plain url options count only when they look like an API; duplicates once, a later call refines the kind', () => {
    const { endpoints } = collect([
      literal('/about'),
      literal('/api'),
      literal('/v2'),
      literal('/graphql'),
      literal('/api/v1/users'),
      literal('/v2/orders'),
      literal('/data/list.json'),
      literal('https://api.shop.co.uk'),
      { value: '/contact', position: 'option', api: 'client' },
      literal('http://www.w3.org/2000/svg'),
      literal('/api/v1/users'),
      literal('/socket/feed'),
      request('/socket/feed', 'websocket'),
    ]);
    expect(endpoints.map((e) => `${e.kind} ${e.value}`)).toEqual([
      'graph_ql /graphql',
      'relative_path /api/v1/users',
      'relative_path /v2/orders',
      'relative_path /data/list.json',
      'absolute_url https://api.shop.co.uk',
      'web_socket /socket/feed',
    ]);
  });

  test('stops at the maximum and says so', () => {
    const collector = new EndpointCollector('https://site.test/', false, 2);
    for (const v of ['/api/a', '/api/b', '/api/c']) collector.add(request(v), 'x.js');
    expect(collector.result()).toMatchObject({ capped: true, endpoints: [{ value: '/api/a' }, { value: '/api/b' }] });
  });
});
