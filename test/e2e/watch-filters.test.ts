/**
 * What a watch notifies about, end to end on fixture pages: a timetable's changed time notifies and
 * its diff shows both times; a live clock, a "5 minutes ago" and a view counter stay quiet; each
 * filter (include_selectors, trigger_text, block_text, only_new_lines, changes added/removed) and
 * condition (a price crossing a bound, a change by a percentage, restock from JSON-LD and from
 * text alone) decides `notified` and says why in `reason`, and `watch.changed` arrives exactly
 * for the checks that notified; the list's tag and search filters. On SQLite, and on Postgres too
 * when TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Storage } from '../../core/services.ts';
import { testDatabases } from '../helpers/databases.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { checkAndWait } from '../helpers/watch-check.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../servers/webhook-receiver.ts';

setDefaultTimeout(30_000);

/** Each fixture path's current body; tests rewrite it between checks. */
const bodies = new Map<string, () => string>();
const html = (title: string, main: string, head = '') =>
  `<!doctype html><html><head><title>${title}</title>${head}</head><body><main><article><h1>${title}</h1>${main}</article></main></body></html>`;

for (const database of testDatabases())
  describe(`watch filters (${database.name})`, () => {
    let site: FixtureSite;
    let trawl: TestServer;
    let receiver: WebhookReceiver;
    let storage: Storage;

    beforeAll(async () => {
      storage = await database.open();
      // Every path a test registered in `bodies` is a page of the site.
      const page = (path: string) => () => new Response(bodies.get(path)!(), { headers: { 'content-type': 'text/html; charset=utf-8' } });
      site = startFixtureSite(new Proxy({}, { get: (_, path: string) => (bodies.has(path) ? page(path) : undefined) }));
      receiver = startWebhookReceiver();
      trawl = await startTrawlServer({ storage, overrides: { jobs: { pollIntervalMs: 50 } } });
    });
    afterAll(async () => {
      await Promise.all([trawl.stop(), site.stop(), receiver.stop()]);
      await storage.close();
    });

    /** A watch of a fixture page with `fields`, its first snapshot taken; `set` changes the page. */
    async function watchPage(name: string, render: () => string, fields: object = {}) {
      bodies.set(`/${name}`, render);
      const created = await trawl.post('/v1/watch', { url: site.at(`/${name}`), webhook_url: receiver.url(`/${name}`), ...fields });
      expect(created.status).toBe(201);
      const id: string = created.body.id;
      const initial = await (async () => {
        for (const deadline = Date.now() + 20_000; Date.now() < deadline; await Bun.sleep(30)) {
          const [first] = (await trawl.get(`/v1/watch/${id}`)).body.snapshots;
          if (first) return first;
        }
        throw new Error('no initial snapshot');
      })();
      expect(initial).toMatchObject({ status: 'initial', notified: false, reason: null });
      let notified = 0;
      return {
        id,
        /** Renders the page with `next` from now on, checks, and answers the snapshot. */
        async step(next: () => string) {
          bodies.set(`/${name}`, next);
          const snapshot = await checkAndWait(trawl, id);
          if (snapshot.notified) notified++;
          return snapshot;
        },
        /** watch.changed arrived once per notifying check, and for no other. */
        async deliveries() {
          if (notified) await receiver.waitFor(notified, `/${name}`);
          await Bun.sleep(300);
          const received = receiver.received(`/${name}`);
          expect(received.length).toBe(notified);
          return received.map((d) => d.payload);
        },
      };
    }

    describe('no silent misses, no noise', () => {
      test('a timetable whose 09:12 becomes 09:47 notifies, and the diff shows both times with the changed word marked', async () => {
        const table = (leith: string) => () =>
          html(
            'Ferries',
            `<table><tr><th>Stop</th><th>Departs</th></tr><tr><td>Leith</td><td>${leith}</td></tr><tr><td>Kirkcaldy</td><td>10:05</td></tr></table>`,
          );
        const watch = await watchPage('timetable', table('09:12'));
        const snapshot = await watch.step(table('09:47'));
        expect(snapshot).toMatchObject({ status: 'changed', notified: true, reason: 'changed', excerpt: '09:12 → 09:47' });
        expect(snapshot.diff_summary).toContain('09:47');
        const diff = (await trawl.get(`/v1/watch/${watch.id}/diff`)).body;
        expect(diff.diff.removed.join('\n')).toContain('09:12');
        expect(diff.diff.added.join('\n')).toContain('09:47');
        expect(diff.diff.unified).toContain('09:12');
        const line = diff.diff.lines.find((l: any) => l.type === 'changed');
        expect(line.old).toContain('| Leith | 09:12 |');
        expect(line.new).toContain('| Leith | 09:47 |');
        expect(line.words.filter((w: any) => w.type !== 'same')).toEqual([
          { type: 'removed', text: '09:12' },
          { type: 'added', text: '09:47' },
        ]);
        expect(diff.diff.lines.filter((l: any) => l.type === 'same').map((l: any) => l.new)).toContain('| Kirkcaldy | 10:05 |');
        const [payload] = await watch.deliveries();
        expect(payload).toMatchObject({ event: 'watch.changed', reason: 'changed', excerpt: '09:12 → 09:47' });
      });

      test('a live clock showing the fetch time, a "5 minutes ago" and a view counter stay quiet', async () => {
        let load = 0;
        const live = () => {
          load++;
          const now = new Date();
          const india = new Date(now.getTime() + 330 * 60_000);
          return html(
            'Live',
            `<p>Server time ${now.toISOString().slice(11, 19)} UTC, Mumbai ${india.toISOString().slice(11, 16)}.</p>
  <p>Page generated ${now.toISOString()}.</p><p>Posted ${load * 5} minutes ago · ${(1200 + load * 37).toLocaleString('en-US')} views · ${load * 3} likes</p>
  <p>The harbour master reports calm seas for the whole week.</p>`,
          );
        };
        const watch = await watchPage('live', live);
        for (let i = 0; i < 3; i++) {
          await Bun.sleep(1100); // the seconds of the clock move on
          expect(await watch.step(live)).toMatchObject({ status: 'same', notified: false, reason: null, excerpt: null });
        }
        await watch.deliveries();
        // With the presets off, the same page changes on every load.
        await trawl.call(`/v1/watch/${watch.id}`, { method: 'PATCH', body: { ignore_patterns: [] } });
        expect(await watch.step(live)).toMatchObject({ status: 'changed', notified: true });
      });
    });

    describe('filters', () => {
      test('include_selectors: only the included part counts', async () => {
        let [status, noise] = ['Open', 1];
        const page = () =>
          html(
            'Pool',
            `<div id="status"><p>The pool is ${status} today.</p></div><p>Visitor story number ${noise} of the day, told at length.</p>`,
          );
        const watch = await watchPage('include', page, { include_selectors: ['#status'] });
        noise = 2;
        expect(await watch.step(page)).toMatchObject({ status: 'same', notified: false });
        status = 'Closed';
        expect(await watch.step(page)).toMatchObject({ status: 'changed', notified: true, reason: 'changed', excerpt: 'Open → Closed' });
        await watch.deliveries();
      });

      test('trigger_text: quiet until the text is there, then notified that it appeared', async () => {
        let news = 'Tickets are not yet available. Check back soon.';
        const page = () => html('Concert', `<p>${news}</p>`);
        const watch = await watchPage('trigger', page, { trigger_text: ['tickets on sale'] });
        news = 'Tickets are not yet available. Check back next week.';
        expect(await watch.step(page)).toMatchObject({ status: 'changed', notified: false, reason: 'trigger_text not present' });
        news = 'Tickets on sale now at the box office.';
        expect(await watch.step(page)).toMatchObject({
          status: 'changed',
          notified: true,
          reason: 'trigger_text "tickets on sale" appeared',
        });
        expect((await watch.deliveries())[0].reason).toBe('trigger_text "tickets on sale" appeared');
      });

      test('block_text: quiet while the text is there', async () => {
        let [banner, date] = ['Sold out', 'May 1'];
        const page = () => html('Show', `<p>${banner}</p><p>Next show on ${date}.</p>`);
        const watch = await watchPage('block', page, { block_text: ['sold out'] });
        date = 'May 8';
        expect(await watch.step(page)).toMatchObject({ status: 'changed', notified: false, reason: 'block_text "sold out" present' });
        banner = 'Seats available';
        expect(await watch.step(page)).toMatchObject({ status: 'changed', notified: true, reason: 'changed' });
        await watch.deliveries();
      });

      test('only_new_lines: a line seen in any earlier check does not count', async () => {
        let items = ['Ferry to Leith resumes', 'Harbour wall repaired'];
        const page = () => html('Notices', `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`);
        const watch = await watchPage('new-lines', page, { only_new_lines: true });
        items = ['Ferry to Leith resumes', 'Harbour wall repaired', 'Fish market moves to pier two'];
        expect(await watch.step(page)).toMatchObject({ status: 'changed', notified: true, reason: 'changed' });
        items = ['Ferry to Leith resumes', 'Harbour wall repaired'];
        expect(await watch.step(page)).toMatchObject({ status: 'changed', notified: false, reason: 'only lines seen before' });
        items = ['Ferry to Leith resumes', 'Harbour wall repaired', 'Fish market moves to pier two'];
        expect(await watch.step(page)).toMatchObject({ status: 'changed', notified: false, reason: 'only lines seen before' });
        items = ['Ferry to Leith resumes', 'Lighthouse open on Sunday', 'Harbour wall repaired'];
        expect(await watch.step(page)).toMatchObject({ status: 'changed', notified: true });
        await watch.deliveries();
      });

      test('changes: "added" ignores removals, "removed" ignores additions', async () => {
        let items = ['Cod', 'Haddock'];
        const page = () => html('Catch', `<ul>${items.map((i) => `<li>${i} landed today</li>`).join('')}</ul>`);
        const added = await watchPage('added', page, { changes: 'added' });
        items = ['Cod'];
        expect(await added.step(page)).toMatchObject({ status: 'changed', notified: false, reason: 'only removed lines' });
        items = ['Cod', 'Mackerel'];
        expect(await added.step(page)).toMatchObject({ status: 'changed', notified: true, reason: 'changed' });
        await added.deliveries();

        let rows = ['Cod', 'Haddock'];
        const other = () => html('Catch', `<ul>${rows.map((i) => `<li>${i} landed today</li>`).join('')}</ul>`);
        const removed = await watchPage('removed', other, { changes: 'removed' });
        rows = ['Cod', 'Haddock', 'Plaice'];
        expect(await removed.step(other)).toMatchObject({ status: 'changed', notified: false, reason: 'only added lines' });
        rows = ['Cod', 'Plaice'];
        expect(await removed.step(other)).toMatchObject({ status: 'changed', notified: true, reason: 'changed' });
        await removed.deliveries();
      });
    });

    describe('conditions and restock', () => {
      const product =
        (price: string, extra = '') =>
        () =>
          html('Kettle', `<p>A steel kettle for the stove.</p><p>Price: <span class="price">${price}</span></p>${extra}`);

      test('a price crossing below a bound notifies once, with the number and the bound', async () => {
        const watch = await watchPage('price', product('€25.00'), { conditions: [{ selector: '.price', below: 20 }] });
        expect(await watch.step(product('€22.00'))).toMatchObject({
          status: 'changed',
          notified: false,
          reason: 'changed; no condition met',
        });
        expect(await watch.step(product('€18.50'))).toMatchObject({
          notified: true,
          reason: '.price 18.5 below 20',
          excerpt: '€22.00 → €18.50',
        });
        expect(await watch.step(product('€18.00'))).toMatchObject({ status: 'changed', notified: false });
        expect(await watch.step(product('€1.299,00'))).toMatchObject({ notified: false });
        expect(await watch.step(product('€19,99'))).toMatchObject({ notified: true, reason: '.price 19.99 below 20' });
        const payloads = await watch.deliveries();
        expect(payloads.map((p) => p.reason)).toEqual(['.price 18.5 below 20', '.price 19.99 below 20']);
      });

      test('above and change_percent', async () => {
        const watch = await watchPage('percent', product('100'), {
          conditions: [
            { selector: '.price', change_percent: 10 },
            { selector: '.missing', above: 1 },
          ],
        });
        expect(await watch.step(product('105'))).toMatchObject({ notified: false });
        expect(await watch.step(product('120'))).toMatchObject({ notified: true, reason: '.price 105 → 120 (+14.3%)' });
        const above = await watchPage('above', product('40'), { conditions: [{ selector: '.price', above: 50 }] });
        expect(await above.step(product('55'))).toMatchObject({ notified: true, reason: '.price 55 above 50' });
        await watch.deliveries();
        await above.deliveries();
      });

      test('restock from JSON-LD: going out of stock is quiet, coming back notifies', async () => {
        const offer = (availability: string) => () =>
          html(
            'Teapot',
            '<p>A cast iron teapot.</p><p>Price 30 EUR</p>',
            `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Teapot","offers":{"@type":"Offer","price":"30","availability":"https://schema.org/${availability}"}}</script>`,
          );
        const watch = await watchPage('restock-ld', offer('InStock'), { restock: true });
        expect(await watch.step(offer('OutOfStock'))).toMatchObject({ status: 'same', notified: false, reason: 'out of stock' });
        expect(await watch.step(offer('OutOfStock'))).toMatchObject({ notified: false, reason: 'out of stock' });
        expect(await watch.step(offer('InStock'))).toMatchObject({ notified: true, reason: 'back in stock' });
        expect((await watch.deliveries()).map((p) => p.reason)).toEqual(['back in stock']);
      });

      test('restock from text alone', async () => {
        const shop = (state: string) => () => html('Mug', `<p>A blue enamel mug.</p><p>${state}</p>`);
        const watch = await watchPage('restock-text', shop('In stock. <button>Add to cart</button>'), { restock: true });
        expect(await watch.step(shop('Sold out. <button disabled>Add to cart</button>'))).toMatchObject({
          status: 'changed',
          notified: false,
          reason: 'out of stock',
        });
        expect(await watch.step(shop('Back in stock! <button>Add to cart</button>'))).toMatchObject({
          notified: true,
          reason: 'back in stock',
        });
        await watch.deliveries();
      });
    });

    test('the list pages through the watches and filters them by tag and by name or URL', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        const created = await trawl.post('/v1/watch', {
          url: site.at(`/static?n=${i}`),
          name: i % 3 ? `Ferry ${i}` : `Tide_${i}%`,
          tags: i % 2 ? ['boats', 'odd'] : ['boats'],
        });
        expect(created.status).toBe(201);
        ids.push(created.body.id);
      }
      const all = await trawl.get('/v1/watch?per_page=100');
      expect(all.body.total).toBe(all.body.watches.length);
      const first = await trawl.get('/v1/watch?limit=10&tag=boats');
      expect(first.body.watches.length).toBe(10);
      expect(first.body).toMatchObject({ total: 12, limit: 10, offset: 0, next: '/v1/watch?tag=boats&limit=10&offset=10' });
      expect(first.body.watches[0]).toMatchObject({ name: 'Ferry 11', tags: ['boats', 'odd'], state: expect.any(String) });
      expect(first.body.watches[0].snapshots).toBeUndefined();
      expect((await trawl.get(first.body.next)).body.watches.length).toBe(2);
      const odd = await trawl.get('/v1/watch?tag=odd&per_page=100');
      expect(odd.body.total).toBe(6);
      expect(odd.body.watches.every((w: any) => w.tags.includes('odd'))).toBe(true);
      expect((await trawl.get('/v1/watch?tag=od')).body.total).toBe(0);
      const tides = await trawl.get('/v1/watch?search=tide_');
      expect(tides.body.watches.map((w: any) => w.name).sort()).toEqual(['Tide_0%', 'Tide_3%', 'Tide_6%', 'Tide_9%']);
      expect((await trawl.get('/v1/watch?search=_0%25')).body.watches.map((w: any) => w.name)).toEqual(['Tide_0%']);
      expect((await trawl.get('/v1/watch?search=n%3D11')).body.watches.map((w: any) => w.name)).toEqual(['Ferry 11']);
      expect((await trawl.get('/v1/watch?tag=boats&search=ferry')).body.total).toBe(8);
      for (const id of ids) await trawl.call(`/v1/watch/${id}`, { method: 'DELETE' });
    });
  });
