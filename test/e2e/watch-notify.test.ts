/**
 * A watch's `notify` targets end to end: a timetable page changes and one check reaches Slack,
 * Discord, Teams and Telegram (a local HTTPS server answering as each platform, reached under its
 * own host name), an SMTP server (the e-mail's From, To, Subject and both parts), a generic https
 * receiver (the signed payload) and the spec's `webhook_url` (its payload as it always was) — each
 * message with the page title, the word diff excerpt, the reason and the dashboard link. A target
 * that fails is retried and its outcome is on the watch (`notify_status`); bad targets are 400s
 * naming the field, and mailto: without SMTP names the setting. On SQLite, and on Postgres when
 * TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { newSigningSecret } from '../../core/features/webhooks/signing.ts';
import type { Storage } from '../../core/services.ts';
import { testDatabases } from '../helpers/databases.ts';
import { startFixtureSite, type FixtureSite } from '../helpers/fixture-site.ts';
import { RECEIVERS_CERT } from '../helpers/tls-cert.ts';
import { startTrawlServer, type TestServer } from '../helpers/trawl-server.ts';
import { startChatPlatforms, type ChatPlatforms } from '../servers/chat-platforms.ts';
import { startSmtpServer, type SmtpTestServer } from '../servers/smtp.ts';

setDefaultTimeout(40_000);

const SECRET = newSigningSecret();
const page = { pier: 'north' };
const timetable = () => `<!doctype html><html><head><title>Leith ferry timetable</title></head><body><main><article>
<h1>Leith ferry timetable</h1><p>The morning ferry to Kirkcaldy leaves from the ${page.pier} pier every weekday.</p>
<p>Tickets are sold on board; bicycles travel free of charge on every crossing of the firth.</p></article></main></body></html>`;

let site: FixtureSite;
let chat: ChatPlatforms;
let smtp: SmtpTestServer;
let trawl: TestServer;

const SLACK = '/services/T0001/B0001/abcdefgh';
const DISCORD = '/api/webhooks/123456789/token-abc';
const TEAMS = '/workflows/abc123/triggers/manual/paths/invoke';
const TELEGRAM = '/bot123456:ABC-def/sendMessage';

beforeAll(() => {
  site = startFixtureSite({ '/timetable': () => new Response(timetable(), { headers: { 'content-type': 'text/html; charset=utf-8' } }) });
});
afterAll(() => site.stop());

/** Trawl on `storage`, with SMTP and the chat platforms' receivers of its own. */
async function startWorld(storage: Storage) {
  chat = startChatPlatforms();
  for (const path of ['/in', '/changed', '/broken']) chat.setSecret(path, SECRET);
  smtp = await startSmtpServer({ username: 'trawl', password: 'mail-pass' });
  trawl = await startTrawlServer({
    storage,
    overrides: {
      server: { publicUrl: 'https://trawl.example/' },
      fetch: { resolve: chat.resolve },
      webhooks: { signingSecret: SECRET, retryBaseMs: 100, retryMaxMs: 200, maxAttempts: 3 },
      jobs: { pollIntervalMs: 50 },
      notify: {
        smtp: {
          host: '127.0.0.1',
          port: smtp.port,
          from: 'Trawl <trawl@example.com>',
          username: 'trawl',
          password: 'mail-pass',
          tls: 'none',
          timeoutMs: 5000,
        },
      },
    },
    httpHooks: { ca: RECEIVERS_CERT, connectPorts: chat.connectPorts },
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(40);
  }
}

/** Checks now and resolves with the new snapshot. */
async function check(id: string) {
  const before = (await trawl.get(`/v1/watch/${id}`)).body.snapshots[0]?.id;
  expect((await trawl.post(`/v1/watch/${id}/check`, undefined)).status).toBe(202);
  return until('a new snapshot', async () => {
    const [latest] = (await trawl.get(`/v1/watch/${id}`)).body.snapshots;
    return latest && latest.id !== before ? latest : null;
  });
}

for (const database of testDatabases())
  describe(`notify targets (${database.name})`, () => {
    let storage: Storage;
    let watch: any;
    beforeAll(async () => {
      storage = await database.open();
      await startWorld(storage);
    });
    afterAll(async () => {
      await Promise.all([trawl.stop(), chat.stop(), smtp.stop()]);
      await storage.close();
    });

    test('one change reaches every target in its own shape, with title, excerpt, reason and the diff link', async () => {
      page.pier = 'north';
      const created = await trawl.post('/v1/watch', {
        url: site.at('/timetable'),
        name: 'Leith ferry',
        webhook_url: chat.url('hooks.example.com', '/changed'),
        notify: [
          chat.url('hooks.slack.com', SLACK),
          chat.url('discord.com', DISCORD),
          chat.url('prod-12.westus.logic.azure.com', `${TEAMS}?api-version=2016-06-01&sig=s`),
          chat.url('api.telegram.org', `${TELEGRAM}?chat_id=-100123`),
          chat.url('hooks.example.com', '/in'),
          'mailto:ops@example.com',
        ],
      });
      expect(created.status).toBe(201);
      watch = created.body;
      expect(watch.notify).toHaveLength(6);
      expect(watch.notify_status).toEqual([]);
      await until('the first snapshot', async () => (await trawl.get(`/v1/watch/${watch.id}`)).body.snapshots.length === 1);
      expect(chat.received()).toEqual([]);

      page.pier = 'south';
      const snapshot = await check(watch.id);
      expect(snapshot).toMatchObject({ status: 'changed', notified: true });
      const excerpt = snapshot.excerpt || snapshot.diff_summary;
      const reason = snapshot.reason;
      const link = `https://trawl.example/dashboard?watch=${watch.id}&to=${snapshot.id}`;

      await chat.waitFor(6);
      const [slack] = chat.received('slack');
      expect(slack!.answered).toBe(200);
      expect(slack!.payload.text).toBe('Page changed for Leith ferry');
      expect(slack!.payload.blocks[0].text.text).toBe(`*<${link}|Leith ferry timetable>*\n${excerpt}`);
      expect(slack!.payload.blocks[1].elements[0].text).toContain(`Reason: ${reason}`);

      const [discord] = chat.received('discord');
      expect(discord!.answered).toBe(204);
      expect(discord!.payload).toMatchObject({
        allowed_mentions: { parse: [] },
        embeds: [
          {
            author: { name: 'Leith ferry timetable', url: site.at('/timetable') },
            title: 'See what changed',
            description: excerpt,
            url: link,
            fields: [{ name: 'Reason', value: reason }],
            footer: { text: 'Leith ferry' },
          },
        ],
      });

      const [teams] = chat.received('teams');
      expect(teams!.answered).toBe(202);
      const card = teams!.payload.attachments[0].content;
      expect(card).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
      expect(card.body.map((b: any) => b.text ?? b.facts?.[0].value ?? b.actions?.[0].url)).toEqual([
        'Page changed: Leith ferry',
        'Leith ferry timetable',
        excerpt,
        reason,
        link,
      ]);

      const [telegram] = chat.received('telegram');
      expect(telegram!.answered).toBe(200);
      expect(telegram!.payload).toMatchObject({ chat_id: '-100123', parse_mode: 'HTML' });
      expect(telegram!.payload.text).toContain(`<a href="${link.replace('&', '&amp;')}">Leith ferry timetable</a>`);

      const generic = chat.received('generic');
      const spec = generic.find((d) => d.path === '/changed')!;
      expect(spec.verified).toBe(true);
      expect(Object.keys(spec.payload).sort()).toEqual([
        'checked_at',
        'event',
        'excerpt',
        'reason',
        'summary',
        'url',
        'watch_id',
        'word_count_delta',
      ]);
      const notified = generic.find((d) => d.path === '/in')!;
      expect(notified.verified).toBe(true);
      expect(notified.payload).toEqual({ ...spec.payload, title: 'Leith ferry timetable', diff_url: link });
      expect(notified.payload).toMatchObject({ event: 'watch.changed', watch_id: watch.id, reason, excerpt: snapshot.excerpt });

      const [mail] = await smtp.waitFor(1);
      expect(mail!.user).toBe('trawl');
      expect(mail!.envelope.to).toEqual(['ops@example.com']);
      expect(mail!.parsed.from?.value).toEqual([{ name: 'Trawl', address: 'trawl@example.com' }]);
      expect(mail!.parsed.subject).toBe('Page changed: Leith ferry');
      for (const part of ['Leith ferry timetable', excerpt, `Reason: ${reason}`, link]) expect(mail!.parsed.text).toContain(part);
      expect(mail!.parsed.html).toContain(`href="${link.replace('&', '&amp;')}"`);

      const status = await until('seven outcomes', async () => {
        const body = (await trawl.get(`/v1/watch/${watch.id}`)).body;
        return body.notify_status.length === 7 ? body.notify_status : null;
      });
      expect(status.every((s: any) => s.ok && s.outcome === 'delivered' && s.error === null && s.attempt === 1)).toBe(true);
      expect(status.map((s: any) => s.target).sort()).toEqual([...watch.notify, watch.webhook_url].sort());
    });

    test("a failing target is retried, and the watch shows each target's outcome", async () => {
      chat.script(DISCORD, 500);
      chat.script('/broken', 503, 503, 503);
      smtp.scriptRecipient('ops@example.com', 451);
      smtp.scriptRecipient('gone@example.com', 550);
      const notify = [
        chat.url('discord.com', DISCORD),
        chat.url('hooks.example.com', '/broken'),
        'mailto:ops@example.com',
        'mailto:gone@example.com',
      ];
      const patched = await trawl.call(`/v1/watch/${watch.id}`, { method: 'PATCH', body: { notify } });
      expect(patched.status).toBe(200);
      // Outcomes of targets no longer listed are not shown.
      expect(patched.body.notify_status.map((s: any) => s.target)).toEqual(
        [chat.url('discord.com', DISCORD), chat.url('hooks.example.com', '/changed'), 'mailto:ops@example.com'].sort(),
      );
      const discordBefore = chat.received('discord').length;
      const mailsBefore = smtp.received.length;

      page.pier = 'east';
      await check(watch.id);
      const status = await until('the retried and the given-up outcomes', async () => {
        const body = (await trawl.get(`/v1/watch/${watch.id}`)).body;
        const byTarget = Object.fromEntries(body.notify_status.map((s: any) => [s.target, s]));
        const discord = byTarget[chat.url('discord.com', DISCORD)];
        const broken = byTarget[chat.url('hooks.example.com', '/broken')];
        const [ops, gone] = [byTarget['mailto:ops@example.com'], byTarget['mailto:gone@example.com']];
        return discord?.attempt === 2 && broken?.outcome === 'failed' && ops?.attempt === 2 && gone ? { discord, broken, ops, gone } : null;
      });
      expect(status.discord).toMatchObject({ ok: true, outcome: 'delivered', error: null });
      expect(status.broken).toMatchObject({ ok: false, outcome: 'failed', error: 'receiver answered HTTP 503', attempt: 3 });
      // E-mail: a mailbox busy for now is tried again; one the server does not have is given up at once.
      expect(status.ops).toMatchObject({ ok: true, outcome: 'delivered', error: null });
      expect(status.gone).toMatchObject({ ok: false, outcome: 'failed', attempt: 1 });
      expect(status.gone.error).toMatch(/^mail server: .*550/);
      expect(smtp.received.slice(mailsBefore).map((m) => m.envelope.to)).toEqual([['ops@example.com']]);
      expect(
        chat
          .received('discord')
          .slice(discordBefore)
          .map((d) => d.answered),
      ).toEqual([500, 204]);
      const attempts = chat.received('generic').filter((d) => d.path === '/broken');
      expect(attempts.map((d) => d.answered)).toEqual([503, 503, 503]);
      expect(new Set(attempts.map((d) => d.headers['webhook-id'])).size).toBe(1);

      // A target removed and added again starts without its old outcome.
      const slack = chat.url('hooks.slack.com', SLACK);
      const readded = await trawl.call(`/v1/watch/${watch.id}`, { method: 'PATCH', body: { notify: [...notify, slack] } });
      expect(readded.body.notify).toContain(slack);
      expect(readded.body.notify_status.map((s: any) => s.target)).not.toContain(slack);
    });

    test('bad targets are a 400 naming the field', async () => {
      const cases: Array<[unknown, string]> = [
        [['ftp://example.com/x'], 'Invalid field notify[0]: must be an https:// URL or mailto:address'],
        [['mailto:a@example.com,b@example.com'], 'Invalid field notify[0]: must be mailto: followed by one e-mail address'],
        [Array.from({ length: 11 }, (_, i) => `https://hooks.example.com/${i}`), 'Invalid field notify: at most 10 targets'],
        ['https://hooks.example.com/in', 'Invalid field notify: Invalid input: expected array, received string'],
      ];
      for (const [notify, error] of cases) {
        const answer = await trawl.post('/v1/watch', { url: site.at('/timetable'), notify });
        expect(answer.status).toBe(400);
        expect(answer.body.error).toBe(error);
      }
    });
  });

test('mailto: without SMTP configured is a 400 that names the setting; other targets still work', async () => {
  const bare = await startTrawlServer();
  try {
    const refused = await bare.post('/v1/watch', {
      url: site.at('/timetable'),
      notify: ['https://hooks.example.com/in', 'mailto:ops@example.com'],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(
      'Invalid field notify[1]: e-mail targets need an SMTP server: set notify.smtp.host (TRAWL_NOTIFY_SMTP_HOST)',
    );
    const accepted = await bare.post('/v1/watch', { url: site.at('/timetable'), notify: ['https://hooks.example.com/in'] });
    expect(accepted.status).toBe(201);
    const patched = await bare.call(`/v1/watch/${accepted.body.id}`, { method: 'PATCH', body: { notify: ['mailto:ops@example.com'] } });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toContain('notify.smtp.host');
  } finally {
    await bare.stop();
  }
});
