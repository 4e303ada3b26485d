/**
 * Watches end to end against a fixture page whose noise changes on every load: create (first
 * snapshot `initial`), noise that must not count (a timestamp in a script, a CSRF token, a rotating
 * ad in the sidebar, reordered query parameters, a clock and a view counter), real changes that
 * must (one sentence edited, a link added) with `watch.changed` verified by a receiver, ignore
 * rules, failures recorded without pausing, retention, PATCH/DELETE/list, validation and the limit,
 * the snapshot diff, and POST /v1/diff.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from 'bun:test';
import { newSigningSecret } from '../../core/features/webhooks/signing.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { checkAndWait as checkWatch } from '../helpers/watch-check.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../servers/webhook-receiver.ts';

setDefaultTimeout(30_000);

const SECRET = newSigningSecret();
let loads = 0;
const page = { sentence: 'The harbour opens at dawn for the fishing fleet.', extraLink: false, banner: 'Spring sale' };

/** Every load differs in its noise; `page` holds what a real edit changes. */
function render(): string {
  loads++;
  const params = loads % 2 ? 'color=red&size=m' : 'size=m&color=red';
  return `<!doctype html><html><head><title>Harbour news</title><meta name="csrf-token" content="${crypto.randomUUID()}">
<script>window.renderedAt = ${Date.now()}; window.nonce = "${crypto.randomUUID()}";</script></head><body>
<nav><a href="/">Home</a></nav>
<main><article><h1>Harbour news</h1>
<p>${page.sentence}</p>
<p>Boats leave from pier four and return before the evening tide comes in across the bay.</p>
<p>Last updated ${new Date().toISOString().slice(11, 19)} UTC · ${1000 + loads * 7} views · ${loads} minutes ago</p>
<p>Read the <a href="/schedule?${params}&utm_source=feed&sid=${loads}">full schedule</a>${page.extraLink ? ' and the <a href="/prices">price list</a>' : ''}.</p>
<div class="promo">${page.banner}</div>
<form><input type="hidden" name="csrf" value="${crypto.randomUUID()}"><button>Subscribe</button></form>
</article></main>
<aside class="sidebar"><div class="ad">Advert ${crypto.randomUUID().slice(0, 8)}: buy boat ${loads}</div></aside>
</body></html>`;
}

let site: FixtureSite;
let trawl: TestServer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  site = startFixtureSite({
    '/harbour': () => new Response(render(), { headers: { 'content-type': 'text/html; charset=utf-8' } }),
    '/static': '<html><head><title>Static</title></head><body><main><p>Nothing ever changes on this quiet page.</p></main></body></html>',
    '/down': { status: 503, body: 'down' },
  });
  receiver = startWebhookReceiver();
  receiver.setSecret('/changed', SECRET);
  trawl = await startTrawlServer({
    overrides: {
      webhooks: { signingSecret: SECRET },
      jobs: { pollIntervalMs: 50, retryBaseMs: 10, retryMaxMs: 20 },
      watch: { snapshotRetention: 4 },
    },
  });
});
afterAll(async () => {
  await Promise.all([trawl.stop(), site.stop(), receiver.stop()]);
});

/** Waits until the watch has `count` snapshots (checks run in the background). */
async function snapshots(id: string, count: number): Promise<any> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { body } = await trawl.get(`/v1/watch/${id}`);
    if (body.snapshots.length >= count) return body;
    if (Date.now() > deadline) throw new Error(`watch ${id} has ${body.snapshots.length} snapshots, expected ${count}`);
    await Bun.sleep(30);
  }
}

const checkAndWait = (id: string) => checkWatch(trawl, id);

describe('a watch over its life', () => {
  let id: string;

  test('create answers the watch and queues the first check: snapshot initial', async () => {
    const created = await trawl.post('/v1/watch', {
      url: site.at('/harbour'),
      name: 'Harbour',
      interval_minutes: 60,
      webhook_url: receiver.url('/changed'),
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      url: site.at('/harbour'),
      name: 'Harbour',
      interval_minutes: 60,
      webhook_url: receiver.url('/changed'),
      active: true,
      last_checked_at: null,
      last_changed_at: null,
      created_at: expect.any(String),
    });
    expect(created.body.snapshots).toBeUndefined();
    id = created.body.id;
    const detail = await snapshots(id, 1);
    expect(detail.snapshots[0]).toMatchObject({
      status: 'initial',
      word_count_delta: 0,
      diff_summary: null,
      links_added: 0,
      links_removed: 0,
      title: 'Harbour news',
    });
    expect(Object.keys(detail.snapshots[0]).sort()).toEqual([
      'checked_at',
      'content_hash',
      'diff_summary',
      'excerpt',
      'id',
      'links_added',
      'links_removed',
      'notified',
      'reason',
      'status',
      'title',
      'word_count',
      'word_count_delta',
    ]);
    expect(detail.last_checked_at).toBe(detail.snapshots[0].checked_at);
    const schedule = await trawl.trawl.storage.db
      .selectFrom('schedules')
      .selectAll()
      .where('subject_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Date.parse(schedule.next_due_at) - Date.now()).toBeGreaterThan(55 * 60_000);
  });

  test('noise is not change: script timestamp, CSRF token, sidebar ad, reordered and tracking parameters, clock, counter', async () => {
    const before = loads;
    const snapshot = await checkAndWait(id);
    expect(loads).toBeGreaterThan(before);
    expect(snapshot).toMatchObject({ status: 'same', diff_summary: null, word_count_delta: 0 });
    const detail = await trawl.get(`/v1/watch/${id}`);
    expect(snapshot.content_hash).toBe(detail.body.snapshots[1].content_hash);
    expect(detail.body.last_changed_at).toBeNull();
  });

  test('one edited sentence is a change, announced as watch.changed, signed', async () => {
    page.sentence = 'The harbour opens at noon for the fishing fleet.';
    const snapshot = await checkAndWait(id);
    expect(snapshot.status).toBe('changed');
    expect(snapshot.diff_summary).toContain('The harbour opens at noon for the fishing fleet.');
    const [delivery] = await receiver.waitFor(1, '/changed');
    expect(delivery!.verified).toBe(true);
    expect(snapshot).toMatchObject({ notified: true, reason: 'changed', excerpt: 'dawn → noon' });
    expect(delivery!.payload).toEqual({
      event: 'watch.changed',
      watch_id: id,
      url: site.at('/harbour'),
      summary: snapshot.diff_summary,
      word_count_delta: 0,
      checked_at: snapshot.checked_at,
      reason: 'changed',
      excerpt: 'dawn → noon',
    });
    const detail = await trawl.get(`/v1/watch/${id}`);
    expect(detail.body.last_changed_at).toBe(snapshot.checked_at);
  });

  test('an added link is a change with links_added and a word delta', async () => {
    page.extraLink = true;
    const snapshot = await checkAndWait(id);
    expect(snapshot).toMatchObject({ status: 'changed', links_added: 1, links_removed: 0 });
    expect(snapshot.word_count_delta).toBeGreaterThan(0);
    await receiver.waitFor(2, '/changed');
  });

  test('the snapshot diff shows what changed between any two snapshots', async () => {
    const detail = await trawl.get(`/v1/watch/${id}`);
    const [newest, , , initial] = detail.body.snapshots;
    const diff = await trawl.get(`/v1/watch/${id}/diff?from=${initial.id}&to=${newest.id}`);
    expect(diff.status).toBe(200);
    expect(diff.body.diff.removed.join('\n')).toContain('opens at dawn');
    expect(diff.body.diff.added.join('\n')).toContain('opens at noon');
    expect(diff.body.diff.unified).toContain('+The harbour opens at noon');
    expect(diff.body.diff.parts.some((p: any) => p.type === 'same')).toBe(true);
    const changed = diff.body.diff.lines.find((l: any) => l.type === 'changed');
    expect(changed).toMatchObject({
      old: 'The harbour opens at dawn for the fishing fleet.',
      new: 'The harbour opens at noon for the fishing fleet.',
    });
    expect(changed.words.filter((w: any) => w.type !== 'same')).toEqual([
      { type: 'removed', text: 'dawn' },
      { type: 'added', text: 'noon' },
    ]);
    expect(diff.body.diff.excerpt).toStartWith('dawn → noon');
    expect(diff.body.links_added).toBe(1);
    expect((await trawl.get(`/v1/watch/${id}/diff`)).body.to.id).toBe(newest.id);
    expect((await trawl.get(`/v1/watch/${id}/diff?from=nope&to=${newest.id}`)).status).toBe(404);
  });

  test('ignore_text and ignore_selectors leave out what the watch says', async () => {
    const patched = await trawl.call(`/v1/watch/${id}`, {
      method: 'PATCH',
      body: { ignore_text: ['opens at * for the'], ignore_selectors: ['.promo'] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'Harbour',
      interval_minutes: 60,
      ignore_text: ['opens at * for the'],
      ignore_selectors: ['.promo'],
    });
    await checkAndWait(id); // the promo leaving the content is a change once
    page.sentence = 'The harbour opens at midnight for the fishing fleet.';
    page.banner = 'Autumn sale';
    const snapshot = await checkAndWait(id);
    expect(snapshot.status).toBe('same');
  });

  test('snapshots beyond the retention are pruned, newest kept', async () => {
    const detail = await trawl.get(`/v1/watch/${id}`);
    expect(detail.body.snapshots.length).toBe(4);
    expect(detail.body.snapshots.map((s: any) => s.status)).not.toContain('initial');
  });

  test('PATCH changes only the given fields; active false pauses the schedule', async () => {
    const patched = await trawl.call(`/v1/watch/${id}`, { method: 'PATCH', body: { active: false, interval_minutes: 120 } });
    expect(patched.body).toMatchObject({
      id,
      name: 'Harbour',
      active: false,
      interval_minutes: 120,
      webhook_url: receiver.url('/changed'),
    });
    const schedule = await trawl.trawl.storage.db
      .selectFrom('schedules')
      .selectAll()
      .where('subject_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(schedule).toMatchObject({ active: 0, interval_seconds: 7200 });
    const cleared = await trawl.call(`/v1/watch/${id}`, { method: 'PATCH', body: { webhook_url: null } });
    expect(cleared.body).toMatchObject({ webhook_url: null, active: false, interval_minutes: 120 });
  });

  test('DELETE removes the watch, its snapshots and its schedule', async () => {
    const deleted = await trawl.call(`/v1/watch/${id}`, { method: 'DELETE' });
    expect(deleted).toMatchObject({ status: 200, body: { success: true } });
    expect((await trawl.get(`/v1/watch/${id}`)).status).toBe(404);
    const db = trawl.trawl.storage.db as any;
    expect(await db.selectFrom('watch_snapshots').selectAll().where('watch_id', '=', id).execute()).toEqual([]);
    expect(await db.selectFrom('schedules').selectAll().where('subject_id', '=', id).execute()).toEqual([]);
    expect((await trawl.call(`/v1/watch/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await trawl.post(`/v1/watch/${id}/check`, undefined)).status).toBe(404);
  });
});

test('a failing page is recorded in last_error and the watch stays active', async () => {
  const created = await trawl.post('/v1/watch', { url: site.at('/down') });
  const deadline = Date.now() + 20_000;
  let watch: any;
  do {
    await Bun.sleep(50);
    watch = (await trawl.get(`/v1/watch/${created.body.id}`)).body;
  } while (!watch.last_error && Date.now() < deadline);
  expect(watch).toMatchObject({ active: true, last_error: 'The server answered HTTP 503', snapshots: [] });
  expect(watch.last_checked_at).toEqual(expect.any(String));
  await trawl.call(`/v1/watch/${created.body.id}`, { method: 'DELETE' });
});

test('validation: missing url, interval outside 1..10080, unknown fields, forbidden receivers, empty PATCH, bad filters', async () => {
  expect(await trawl.post('/v1/watch', {})).toMatchObject({ status: 400, body: { error: 'Missing required field: url' } });
  for (const interval of [0, 10081, 90.5]) {
    const answer = await trawl.post('/v1/watch', { url: site.at('/static'), interval_minutes: interval });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toStartWith('Invalid field interval_minutes:');
  }
  expect((await trawl.post('/v1/watch', { url: site.at('/static'), every: 5 })).status).toBe(400);
  expect((await trawl.post('/v1/watch', { url: site.at('/static'), webhook_url: 'ftp://x' })).body.error).toStartWith(
    'Invalid field webhook_url',
  );
  expect((await trawl.post('/v1/watch', { url: site.at('/static'), ignore_selectors: ['a[[['] })).body.error).toStartWith(
    'Invalid field ignore_selectors[0]',
  );
  const bad: Array<[object, string]> = [
    [{ ignore_patterns: ['clock', 'weather'] }, 'Invalid field ignore_patterns[1]'],
    [{ include_selectors: ['div[[['] }, 'Invalid field include_selectors[0]'],
    [{ conditions: [{ below: 20 }] }, 'Missing required field: conditions[0].selector'],
    [{ conditions: [{ selector: '.price' }] }, 'Invalid field conditions[0]: a condition needs below, above or change_percent'],
    [{ conditions: [{ selector: '.price', change_percent: 0 }] }, 'Invalid field conditions[0].change_percent'],
    [{ conditions: [{ selector: 'p[[', above: 1 }] }, 'Invalid field conditions[0]: invalid CSS selector'],
    [{ changes: 'both' }, 'Invalid field changes'],
    [{ trigger_text: [''] }, 'Invalid field trigger_text[0]'],
    [{ only_new_lines: 'yes' }, 'Invalid field only_new_lines'],
    [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'Invalid field tags'],
  ];
  for (const [fields, error] of bad) {
    const answer = await trawl.post('/v1/watch', { url: site.at('/static'), ...fields });
    expect([answer.status, answer.body.error]).toEqual([400, expect.stringContaining(error)]);
  }
  const created = await trawl.post('/v1/watch', { url: site.at('/static'), interval_minutes: 1 });
  const nextCheck = Date.parse(created.body.next_check_at);
  expect(nextCheck - Date.now()).toBeLessThan(2 * 60_000);
  expect(created.body).toMatchObject({
    interval_minutes: 1,
    name: site.at('/static'),
    webhook_url: null,
    state: 'new',
    next_check_at: expect.any(String),
    include_selectors: [],
    ignore_patterns: ['clock', 'relative_time', 'counters', 'tokens'],
    trigger_text: [],
    block_text: [],
    only_new_lines: false,
    changes: 'any',
    conditions: [],
    restock: false,
    tags: [],
  });
  expect((await trawl.call(`/v1/watch/${created.body.id}`, { method: 'PATCH', body: {} })).status).toBe(400);
  expect((await trawl.call(`/v1/watch/${created.body.id}`, { method: 'PATCH', body: { interval_minutes: 0 } })).status).toBe(400);
  expect((await trawl.call(`/v1/watch/${created.body.id}`, { method: 'PATCH', body: { ignore_patterns: ['nope'] } })).status).toBe(400);
  const paused = await trawl.call(`/v1/watch/${created.body.id}`, {
    method: 'PATCH',
    body: { active: false, ignore_patterns: [], conditions: [{ selector: '.p', below: 5, change_percent: 10 }] },
  });
  expect(paused.body).toMatchObject({
    state: 'paused',
    next_check_at: null,
    ignore_patterns: [],
    conditions: [{ selector: '.p', below: 5, change_percent: 10 }],
  });
  expect((await trawl.call('/v1/watch/unknown', { method: 'PATCH', body: { name: 'x' } })).status).toBe(404);
  await trawl.call(`/v1/watch/${created.body.id}`, { method: 'DELETE' });
});

test('the OpenAPI document describes every watch and diff route and the watch.changed event', async () => {
  const doc = (await trawl.get('/openapi.json')).body;
  expect(Object.keys(doc.paths['/v1/watch']).sort()).toEqual(['get', 'post']);
  expect(Object.keys(doc.paths['/v1/watch/{id}']).sort()).toEqual(['delete', 'get', 'patch']);
  for (const path of ['/v1/watch/{id}/check', '/v1/watch/{id}/diff', '/v1/diff']) expect(doc.paths[path]).toBeDefined();
  expect(doc.webhooks['watch.changed']).toBeDefined();
  expect(doc.components.schemas.WatchChangedEvent.required).toEqual([
    'event',
    'watch_id',
    'url',
    'summary',
    'word_count_delta',
    'checked_at',
  ]);
  expect(doc.paths['/v1/watch'].post.requestBody.content['application/json'].schema.properties.interval_minutes).toMatchObject({
    minimum: 1,
    maximum: 10080,
  });
  const fields = Object.keys(doc.paths['/v1/watch'].post.requestBody.content['application/json'].schema.properties);
  for (const field of [
    'include_selectors',
    'ignore_patterns',
    'trigger_text',
    'block_text',
    'only_new_lines',
    'changes',
    'conditions',
    'restock',
    'tags',
  ])
    expect(fields).toContain(field);
  expect(Object.keys(doc.components.schemas.WatchSnapshot.properties)).toEqual(expect.arrayContaining(['notified', 'reason', 'excerpt']));
  expect(Object.keys(doc.components.schemas.Watch.properties)).toEqual(expect.arrayContaining(['state', 'next_check_at']));
});

describe('POST /v1/diff', () => {
  test('against previous text: changed lines, links and a summary', async () => {
    const answer = await trawl.post('/v1/diff', {
      url: site.at('/static'),
      previous: 'Something always changes on this busy page.\n\nSee [more](https://example.com/more).',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      url: site.at('/static'),
      status: 'changed',
      previous_scraped_at: null,
      links_removed: 1,
      links_added: 0,
    });
    expect(answer.body.diff.added).toEqual(['Nothing ever changes on this quiet page.']);
    expect(answer.body.diff.removed).toContain('Something always changes on this busy page.');
    expect(answer.body.summary).toContain('Now reads: “Nothing ever changes on this quiet page.”');
  });

  test('against the last stored scrape: new, then same, with previous_scraped_at', async () => {
    const url = site.at('/static?diff=1');
    const first = await trawl.post('/v1/diff', { url });
    expect(first.body).toMatchObject({
      status: 'new',
      previous_scraped_at: null,
      diff: { unified: '', added: [], removed: [] },
      word_count_delta: 0,
    });
    const second = await trawl.post('/v1/diff', { url });
    expect(second.body).toMatchObject({ status: 'same', word_count_delta: 0, links_added: 0, links_removed: 0 });
    expect(second.body.previous_scraped_at).toEqual(expect.any(String));
  });

  test('validation and fetch failures', async () => {
    expect(await trawl.post('/v1/diff', {})).toMatchObject({ status: 400, body: { error: 'Missing required field: url' } });
    expect((await trawl.post('/v1/diff', { url: site.at('/static'), previous: 5 })).status).toBe(400);
    expect((await trawl.post('/v1/diff', { url: 'http://127.0.0.1:1/' })).status).toBe(422);
  });
});
