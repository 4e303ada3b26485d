import { describe, expect, test } from 'bun:test';
import type { ScanSource } from '../../../core/kit.ts';
import { scanJavaScript } from './javascript.ts';

const source = (text: string): ScanSource => ({ type: 'javascript', text, name: 'app.js', pageUrl: 'https://site.test/' });
const scan = (text: string) => scanJavaScript(source(text), 0.02)!.hits.map((h) => `${h.position} ${h.api ?? '-'} ${h.value}`);

describe('scanner.javascript', () => {
  test('request calls: fetch, XHR, clients, jQuery, WebSocket, EventSource, beacons, GraphQL clients', () => {
    expect(
      scan(`
      fetch("/api/a"); window.fetch('/api/b'); (0, r.fetch)("/api/c");
      x.open("PUT", "/api/d"); window.open("/not-a-request");
      axios.get("/api/e"); n.a.post("/api/f", {}); ky("/api/g"); $.ajax({ url: "/api/h", type: "POST" }); $.getJSON("/api/i.json");
      new WebSocket("wss://live.site.test/ws"); new EventSource("/api/stream"); navigator.sendBeacon("/beacon");
      new ApolloClient({ uri: "https://site.test/graphql" }); new Request("/api/j");
      const map = new Map(); map.get("key");
    `),
    ).toEqual([
      'request fetch /api/a',
      'request fetch /api/b',
      'request fetch /api/c',
      'request xhr /api/d',
      'request client /api/e',
      'request client /api/f',
      'request client /api/g',
      'request client /api/h',
      'request client /api/i.json',
      'request websocket wss://live.site.test/ws',
      'request eventsource /api/stream',
      'request beacon /beacon',
      'request graphql https://site.test/graphql',
      'request fetch /api/j',
      'literal - /not-a-request',
    ]);
  });

  test('template literals, concatenations and once-bound constants become one value with {name} placeholders', () => {
    expect(
      scan(`
      const BASE = "https://api.site.test/v2"; let twice = "/a"; twice = "/b";
      fetch(\`\${BASE}/users/\${user.id}/posts?page=\${p}\`);
      fetch(BASE + "/orders/" + id);
      fetch("/api/x/".concat(id));
      fetch(twice + "/y");
      const label = "Order " + "/api/z/" + n;
    `),
    ).toEqual([
      'request fetch https://api.site.test/v2/users/{id}/posts?page={p}',
      'request fetch https://api.site.test/v2/orders/{id}',
      'request fetch /api/x/{id}',
      // a name given two values stands for both
      'request fetch /a/y',
      'request fetch /b/y',
      'literal - https://api.site.test/v2',
      'literal - /a',
      'literal - /b',
      // the whole string has a space: only its URL-like part reads as one
      'literal - /api/z/',
    ]);
  });

  test('options and variables: names that say API are requests, a plain url is an option', () => {
    expect(
      scan(`const apiUrl = "/api/v1"; const menu = [{ title: "About", url: "/about" }]; cfg.baseURL = "https://api.site.test";`),
    ).toEqual(['request client /api/v1', 'option client /about', 'request client https://api.site.test']);
  });

  test('a syntax error is read by the tolerant parser; code it cannot read is declined', () => {
    const tolerant = scanJavaScript(source('function a() { return fetch("/api/ok") }} fetch("/api/after")'), 0.02)!;
    expect(tolerant.hits.map((h) => h.value)).toEqual(['/api/ok', '/api/after']);
    expect(tolerant.warnings?.[0]).toStartWith('read by the tolerant parser');
    expect(scanJavaScript(source('<<< %%% @@@ ### >>> ]]] ((( '.repeat(20)), 0.02)).toBeNull();
    expect(scanJavaScript(source(`${'['.repeat(50_000)}${']'.repeat(50_000)}`), 0.02)).toBeNull();
  });

  test('minified code: property names and globals are matched, renamed locals are not needed', () => {
    const hits = scan(
      '!function(){var e="/api/v2";function t(t){return fetch(e+"/users/"+t)}var n=new XMLHttpRequest;n.open("GET",e+"/me");t(1)}();',
    );
    expect(hits).toEqual(['request fetch /api/v2/users/{t}', 'request xhr /api/v2/me', 'literal - /api/v2']);
  });

  test('request wrappers: a function passing its parameter to fetch makes its callers request positions, a few levels up', () => {
    expect(
      scan(`
      async function api(path, options) { const res = await fetch(path, options); return res.json(); }
      const get = (p) => api(p, { method: "GET" });
      api("/api/direct"); get(\`\${"api"}/through/two\`);
      function unrelated(x) { return x.length; } unrelated("/not/a/request");
    `),
    ).toEqual(['request client /api/direct', 'request client api/through/two', 'literal - /not/a/request']);
  });

  test('names are looked up scope by scope, as minified modules reuse them; URL builders are expanded; conditions and reassignments give every value', () => {
    expect(
      scan(`
      function moduleA() { var a = function (p) { return "".concat(base, "-/app/").concat(p); }; return c.request(a("data/packages"), "GET"); }
      function moduleB() { var a = "/api/b"; return fetch(a + "/items"); }
      function moduleC(a) { return fetch(a + "/param"); }
      var t = "/api/t"; t = "/api/changed"; fetch(t);
      const s = flag ? \`/api/stats?full=1\` : "/api/stats"; fetch(s); fetch(stored || "/api/default");
    `).filter((h) => h.startsWith('request')),
    ).toEqual([
      'request client {base}-/app/data/packages',
      'request fetch /api/b/items',
      'request fetch {a}/param',
      'request fetch /api/t',
      'request fetch /api/changed',
      'request fetch /api/stats?full=1',
      'request fetch /api/stats',
      'request fetch /api/default',
    ]);
  });

  test('a value built from names bound to names cannot blow up', () => {
    const chain = Array.from({ length: 40 }, (_, i) => `var a${i + 1} = a${i} + a${i};`).join('\n');
    const started = performance.now();
    const hits = scan(`var a0 = "/api/x"; ${chain} fetch(a40);`);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(hits.every((h) => h.length < 5000)).toBe(true);
  });

  test('bare names where only URLs go, request configurations wherever they are built, values set in branches', () => {
    expect(
      scan(`
      $.get('connections', cb); fetch("config"); map.get("key"); this.http.get("settings");
      var p = { method: "get", url: "".concat(".", "/stats") }; new Req(p).execute();
      var menu = { title: "About", url: "/about" }, nav = [{ title: "API", link: "/api" }, { path: "/api/docs", component: Docs }];
      var dataUrl; if (root) { dataUrl = 'apiv2/tree/' + id + '/'; } else { dataUrl = 'apiv2/tree/' + root + '/' + path; }
      $.get({ url: dataUrl, dataType: 'json' });
    `),
    ).toEqual([
      'request client connections',
      'request fetch config',
      'request client settings',
      'request client ./stats',
      'option client /about',
      'request client apiv2/tree/{id}/',
      'request client apiv2/tree/{root}/{path}',
    ]);
  });
});
