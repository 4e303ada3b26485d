/**
 * The watch feed: tokens are created, rotated and revoked with the API key; the Atom document lists
 * only notified changes, newest first, parses as XML whatever a page's title or a watch's name
 * holds, and opens with nothing but a live token (no API key, no revoked or rotated token), on
 * SQLite and on Postgres.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Storage } from '../../core/services.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { testDatabases } from '../helpers/databases.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';

const KEY = 'feed-test-key-0123456789';
const auth = { authorization: `Bearer ${KEY}` };
let price = '20';

async function waitForSnapshots(trawl: TestServer, id: string, count: number) {
  for (let i = 0; i < 200; i++) {
    const detail = (await trawl.get(`/v1/watch/${id}`, auth)).body;
    if (detail.snapshots.length >= count) return detail.snapshots;
    await Bun.sleep(50);
  }
  throw new Error(`watch ${id} did not reach ${count} snapshots`);
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', isArray: (name) => ['entry', 'link'].includes(name) });

for (const database of testDatabases()) {
  describe(`watch feed (${database.name})`, () => {
    let site: FixtureSite;
    let storage: Storage;
    let trawl: TestServer;

    beforeAll(() => {
      site = startFixtureSite({
        '/shop': () =>
          new Response(
            `<html><head><title>Tea &amp; <cakes> "shop"</title></head><body><main><h1>Teapot</h1><p>Price: <span id="price">${price}</span> GBP</p><p>A fine teapot in blue glaze, made by hand in a small workshop.</p></main></body></html>`,
            { headers: { 'content-type': 'text/html' } },
          ),
      });
    });
    afterAll(() => site.stop());
    beforeEach(async () => {
      storage = await database.open();
      trawl = await startTrawlServer({ storage, overrides: { apiKey: KEY, jobs: { pollIntervalMs: 50 } } });
    });
    afterEach(async () => {
      await trawl.stop();
      await storage.close();
    });

    test('tokens need the API key; the feed needs a live token and lists notified changes, escaped', async () => {
      for (const method of ['POST', 'GET', 'DELETE']) expect((await trawl.call('/v1/watch/feed-token', { method })).status).toBe(401);
      expect(await trawl.get('/v1/watch/feed-token', auth)).toMatchObject({ status: 200, body: { active: false, created_at: null } });
      expect(await trawl.call('/v1/watch/feed-token', { method: 'DELETE', headers: auth })).toMatchObject({
        status: 404,
        body: { error: 'No feed token to revoke' },
      });

      price = '20';
      const hostileName = 'Tea <b>&</b> "cakes" ]]> \u0001 bell';
      const watch = (
        await trawl.post('/v1/watch', { url: site.at('/shop'), name: hostileName, conditions: [{ selector: '#price', below: 15 }] }, auth)
      ).body;
      await waitForSnapshots(trawl, watch.id, 1);
      price = '18';
      await trawl.post(`/v1/watch/${watch.id}/check`, {}, auth);
      const quiet = await waitForSnapshots(trawl, watch.id, 2);
      expect(quiet[0]).toMatchObject({ status: 'changed', notified: false });
      price = '12';
      await trawl.post(`/v1/watch/${watch.id}/check`, {}, auth);
      const notified = (await waitForSnapshots(trawl, watch.id, 3))[0];
      expect(notified).toMatchObject({ notified: true, excerpt: '18 → 12' });
      expect(notified.reason).toContain('#price');

      const created = await trawl.post('/v1/watch/feed-token', {}, auth);
      expect(created.status).toBe(201);
      expect(created.body.token).toMatch(/^trawl_feed_[\w-]{32}$/);
      expect(created.body.feed_url).toBe(`${trawl.url}/v1/watch/feed.atom?token=${created.body.token}`);
      expect((await trawl.get('/v1/watch/feed-token', auth)).body).toMatchObject({ active: true, created_at: created.body.created_at });

      const response = await fetch(created.body.feed_url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
      const xml = await response.text();
      expect(XMLValidator.validate(xml)).toBe(true);
      expect(xml).not.toContain('\u0001');
      const feed = parser.parse(xml).feed;
      expect(feed['@_xmlns']).toBe('http://www.w3.org/2005/Atom');
      // Only the notified change: the first snapshot and the quiet change (the price not yet below 15) are not news.
      expect(feed.entry).toHaveLength(1);
      const entry = feed.entry[0];
      expect(entry.id).toBe(`urn:uuid:${notified.id}`);
      expect(entry.title['#text']).toBe('Tea <b>&</b> "cakes" ]]>  bell changed');
      expect(entry.updated).toBe(notified.checked_at);
      expect(entry.summary['#text']).toBe(`${notified.reason} — 18 → 12`);
      expect(entry.link.map((l: Record<string, string>) => l['@_href'])).toEqual([
        `${trawl.url}/dashboard?watch=${watch.id}&to=${notified.id}`,
        site.at('/shop'),
      ]);
      expect(entry.content['#text']).toContain('Tea & <cakes> "shop"');

      // No key in the URL opens it, nor a wrong token; a rotated token stops working, so does a revoked one.
      for (const query of ['', '?token=', `?token=${KEY}`, '?token=trawl_feed_nope']) {
        expect(await trawl.get(`/v1/watch/feed.atom${query}`)).toMatchObject({
          status: 401,
          body: { error: 'Invalid or revoked feed token' },
        });
      }
      const rotated = (await trawl.post('/v1/watch/feed-token', {}, auth)).body;
      expect((await fetch(created.body.feed_url)).status).toBe(401);
      expect((await fetch(rotated.feed_url)).status).toBe(200);
      expect(await trawl.call('/v1/watch/feed-token', { method: 'DELETE', headers: auth })).toMatchObject({
        status: 200,
        body: { success: true },
      });
      expect((await fetch(rotated.feed_url)).status).toBe(401);
      expect((await trawl.get('/v1/watch/feed-token', auth)).body.active).toBe(false);
    }, 30_000);

    test('the OpenAPI document describes the feed (no API key) and its token endpoints', async () => {
      const { paths } = (await trawl.get('/openapi.json')).body;
      expect(paths['/v1/watch/feed.atom'].get).toMatchObject({
        security: [],
        responses: { 200: { content: { 'application/atom+xml': {} } }, 401: {} },
      });
      expect(Object.keys(paths['/v1/watch/feed-token']).sort()).toEqual(['delete', 'get', 'post']);
      expect(paths['/v1/watch/feed-token'].post.responses[201].content['application/json'].schema.required).toEqual([
        'token',
        'feed_url',
        'created_at',
      ]);
    });

    test('entries come newest first, and a feed with no changes is a valid empty feed', async () => {
      const { token } = (await trawl.post('/v1/watch/feed-token', {}, auth)).body;
      const empty = parser.parse(await (await fetch(`${trawl.url}/v1/watch/feed.atom?token=${token}`)).text()).feed;
      expect(empty.entry).toBeUndefined();
      expect(empty.title).toBe('Trawl: watched pages that changed');

      price = '30';
      const ids: string[] = [];
      for (const name of ['first', 'second']) {
        const w = (await trawl.post('/v1/watch', { url: site.at('/shop'), name }, auth)).body;
        await waitForSnapshots(trawl, w.id, 1);
        ids.push(w.id);
      }
      price = '31';
      for (const [i, id] of ids.entries()) {
        await trawl.post(`/v1/watch/${id}/check`, {}, auth);
        await waitForSnapshots(trawl, id, 2);
        if (i === 0) await Bun.sleep(20);
      }
      const feed = parser.parse(await (await fetch(`${trawl.url}/v1/watch/feed.atom?token=${token}`)).text()).feed;
      expect(feed.entry.map((e: { title: { '#text': string } }) => e.title['#text'])).toEqual(['second changed', 'first changed']);
      expect(feed.updated).toBe(feed.entry[0].updated);
    }, 30_000);
  });
}
