import { describe, expect, test } from 'bun:test';
import type { ScanSource } from '../../../core/plugin.ts';
import { scanJavaScript } from './javascript.ts';

const source = (text: string): ScanSource => ({ type: 'javascript', text, name: 'app.js', pageUrl: 'https://site.test/' });
const scan = (text: string) => scanJavaScript(source(text), 0.02)!.hits.map((h) => `${h.position} ${h.api ?? '-'} ${h.value}`);

describe('scanner.javascript', () => {
  test('request calls: fetch, XHR, clients, jQuery, WebSocket, EventSource, beacons, GraphQL clients', () => {
    expect(scan(`
      fetch("/api/a"); window.fetch('/api/b'); (0, r.fetch)("/api/c");
      x.open("PUT", "/api/d"); window.open("/not-a-request");
      axios.get("/api/e"); n.a.post("/api/f", {}); ky("/api/g"); $.ajax({ url: "/api/h", type: "POST" }); $.getJSON("/api/i.json");
      new WebSocket("wss://live.site.test/ws"); new EventSource("/api/stream"); navigator.sendBeacon("/beacon");
      new ApolloClient({ uri: "https://site.test/graphql" }); new Request("/api/j");
      const map = new Map(); map.get("key");
    `)).toEqual([
      'request fetch /api/a', 'request fetch /api/b', 'request fetch /api/c', 'request xhr /api/d',
      'request client /api/e', 'request client /api/f', 'request client /api/g', 'request client /api/h', 'request client /api/i.json',
      'request websocket wss://live.site.test/ws', 'request eventsource /api/stream', 'request beacon /beacon',
      'request graphql https://site.test/graphql', 'request fetch /api/j',
      'literal - /not-a-request',
    ]);
  });

  test('template literals, concatenations and once-bound constants become one value with {name} placeholders', () => {
    expect(scan(`
      const BASE = "https://api.site.test/v2"; let twice = "/a"; twice = "/b";
      fetch(\`\${BASE}/users/\${user.id}/posts?page=\${p}\`);
      fetch(BASE + "/orders/" + id);
      fetch("/api/x/".concat(id));
      fetch(twice + "/y");
      const label = "Order " + "/api/z/" + n;
    `)).toEqual([
      'request fetch https://api.site.test/v2/users/{id}/posts?page={p}',
      'request fetch https://api.site.test/v2/orders/{id}',
      'request fetch /api/x/{id}',
      'request fetch {twice}/y',
      'literal - https://api.site.test/v2',
      'literal - /a',
      'literal - /b',
      // the whole string has a space: only its URL-like part reads as one
      'literal - /api/z/',
    ]);
  });

  test('options and variables: names that say API are requests, a plain url is an option', () => {
    expect(scan(`const apiUrl = "/api/v1"; const menu = [{ title: "About", url: "/about" }]; cfg.baseURL = "https://api.site.test";`)).toEqual([
      'request client /api/v1', 'option client /about', 'request client https://api.site.test',
    ]);
  });

  test('a syntax error is read by the tolerant parser; code it cannot read is declined', () => {
    const tolerant = scanJavaScript(source('function a() { return fetch("/api/ok") }} fetch("/api/after")'), 0.02)!;
    expect(tolerant.hits.map((h) => h.value)).toEqual(['/api/ok', '/api/after']);
    expect(tolerant.warnings?.[0]).toStartWith('read by the tolerant parser');
    expect(scanJavaScript(source('<<< %%% @@@ ### >>> ]]] ((( '.repeat(20)), 0.02)).toBeNull();
    expect(scanJavaScript(source(`${'['.repeat(50_000)}${']'.repeat(50_000)}`), 0.02)).toBeNull();
  });

  test('minified code: property names and globals are matched, renamed locals are not needed', () => {
    const hits = scan('!function(){var e="/api/v2";function t(t){return fetch(e+"/users/"+t)}var n=new XMLHttpRequest;n.open("GET",e+"/me");t(1)}();');
    expect(hits).toEqual(['request fetch /api/v2/users/{t}', 'request xhr /api/v2/me', 'literal - /api/v2']);
  });
});
