// Notification targets as a watch's `notify` list takes them (syntax, the http rule, SMTP needed
// for mailto:), the e-mail a notification becomes, and the Mailer against a real SMTP server in
// the test (authentication, a recipient refused for now or for good, TLS required).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startSmtpServer, type SmtpTestServer } from '../../../test/servers/smtp.ts';
import { testConfig } from '../../../test/helpers/plugin-context.ts';
import { chatMessages } from './chat.ts';
import { smtpConfigSchema } from './config.ts';
import { createMailer, emailOf } from './email.ts';
import type { Notification } from './notification.ts';
import { notifyTargetsSchema, targetsProblem } from './targets.ts';

const change: Notification = {
  source: 'Leith <ferries>',
  headline: () => 'Page changed',
  items: [
    {
      heading: 'Leith – Kirkcaldy timetable',
      headingUrl: 'https://ferries.example/leith',
      title: 'See what changed',
      text: 'Departs [-09:12-] {+09:47+} from pier 4 & <b>stops</b>',
      facts: [{ name: 'Reason', value: 'trigger_text "09:4"' }],
      link: { url: 'https://trawl.example/dashboard?watch=w1&to=s2', label: 'See what changed' },
      time: '2026-11-28T09:00:00.000Z',
    },
  ],
};

describe('notify targets', () => {
  const schema = notifyTargetsSchema(3);
  const smtp = smtpConfigSchema.parse({ host: 'smtp.example.com', from: 'trawl@example.com' });
  const publicOnly = { ...testConfig().fetch, allowPrivateNetwork: false, resolve: { 'hooks.example.com': '93.184.215.14' } };

  test('https URLs and one mailto: address each, normalised and deduplicated', () => {
    expect(schema.parse(['https://hooks.example.com/in', 'MAILTO:ops%40example.com', ' https://hooks.example.com/in '])).toEqual([
      'https://hooks.example.com/in',
      'mailto:ops@example.com',
    ]);
    for (const [value, message] of [
      ['mailto:', 'must be mailto: followed by one e-mail address'],
      ['mailto:a@example.com,b@example.com', 'must be mailto: followed by one e-mail address'],
      ['mailto:a@example.com?cc=b@example.com', 'must be mailto: followed by one e-mail address'],
      ['ftp://example.com/x', 'must be an https:// URL or mailto:address'],
      ['hooks.example.com/in', 'must be an https:// URL or mailto:address'],
    ]) {
      const parsed = schema.safeParse([value]);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]).toMatchObject({ path: [0], message });
    }
    expect(
      schema.safeParse(['https://a.example/1', 'https://a.example/2', 'https://a.example/3', 'https://a.example/4']).error?.issues[0]
        ?.message,
    ).toBe('at most 3 targets');
  });

  test('mailto: needs SMTP configured; http:// only where private networks are allowed; the SSRF guard decides', async () => {
    expect(
      await targetsProblem(['https://hooks.example.com/in', 'mailto:ops@example.com'], {
        fetch: publicOnly,
        smtp: smtpConfigSchema.parse({}),
      }),
    ).toBe('notify[1]: e-mail targets need an SMTP server: set notify.smtp.host (TRAWL_NOTIFY_SMTP_HOST)');
    expect(
      await targetsProblem(['mailto:ops@example.com'], { fetch: publicOnly, smtp: smtpConfigSchema.parse({ host: 'smtp.example.com' }) }),
    ).toBe('notify[0]: e-mail targets need an SMTP server: set notify.smtp.from (TRAWL_NOTIFY_SMTP_FROM)');
    expect(await targetsProblem(['mailto:ops@example.com', 'https://hooks.example.com/in'], { fetch: publicOnly, smtp })).toBeNull();
    expect(await targetsProblem(['http://hooks.example.com/in'], { fetch: publicOnly, smtp })).toBe(
      'notify[0]: must be an https:// URL (http:// only where fetch.allowPrivateNetwork is set)',
    );
    expect(await targetsProblem(['http://127.0.0.1:9/in'], { fetch: { ...publicOnly, allowPrivateNetwork: true }, smtp })).toBeNull();
    expect(await targetsProblem(['https://127.0.0.1/in'], { fetch: publicOnly, smtp })).toContain(
      'notify[0]: address 127.0.0.1 is not allowed',
    );
  });
});

describe('a notification as e-mail', () => {
  test('subject, plain text and escaped HTML carry the title, excerpt, reason and link', () => {
    const mail = emailOf(change);
    expect(mail.subject).toBe('Page changed: Leith <ferries>');
    for (const part of [
      'Leith – Kirkcaldy timetable',
      'Departs [-09:12-] {+09:47+} from pier 4 & <b>stops</b>',
      'Reason: trigger_text "09:4"',
      'See what changed: https://trawl.example/dashboard?watch=w1&to=s2',
    ]) {
      expect(mail.text).toContain(part);
    }
    expect(mail.html).toContain('from pier 4 &amp; &lt;b&gt;stops&lt;/b&gt;');
    expect(mail.html).toContain('<a href="https://trawl.example/dashboard?watch=w1&amp;to=s2">See what changed</a>');
    expect(mail.html).not.toContain('<b>stops');
  });

  test('a header stays one line and the sizes stay bounded whatever the page holds', () => {
    const hostile = {
      ...change,
      source: `Evil\r\nBcc: victim@example.com ${'x'.repeat(500)}`,
      items: [{ ...change.items[0]!, text: 'y'.repeat(100_000) }],
    };
    const mail = emailOf(hostile);
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.subject.length).toBeLessThanOrEqual(200);
    expect(mail.text.length).toBeLessThan(10_000);
    expect(mail.html.length).toBeLessThan(12_000);
  });
});

describe('a watch change on each chat platform', () => {
  test('the page title links to the diff, the excerpt is the text, the reason a fact', () => {
    const [slack] = chatMessages('https://hooks.slack.com/services/T1/B1/x', change, 5) as any[];
    expect(slack.text).toBe('Page changed for Leith <ferries>');
    expect(slack.blocks[0].text.text).toBe(
      '*<https://trawl.example/dashboard?watch=w1&to=s2|Leith – Kirkcaldy timetable>*\nDeparts [-09:12-] {+09:47+} from pier 4 &amp; &lt;b&gt;stops&lt;/b&gt;',
    );
    expect(slack.blocks[1].elements[0].text).toBe('Reason: trigger_text "09:4" · 2026-11-28T09:00:00.000Z · Leith &lt;ferries&gt;');
    const [discord] = chatMessages('https://discord.com/api/webhooks/1/t', change, 5) as any[];
    expect(discord.embeds[0]).toEqual({
      author: { name: 'Leith – Kirkcaldy timetable', url: 'https://ferries.example/leith' },
      title: 'See what changed',
      description: change.items[0]!.text,
      url: 'https://trawl.example/dashboard?watch=w1&to=s2',
      timestamp: '2026-11-28T09:00:00.000Z',
      fields: [{ name: 'Reason', value: 'trigger_text "09:4"', inline: true }],
      footer: { text: 'Leith <ferries>' },
    });
    const [telegram] = chatMessages('https://api.telegram.org/bot1:x/sendMessage?chat_id=42', change, 5) as any[];
    expect(telegram.text).toBe(
      '<b>Leith &lt;ferries&gt;</b>\n\n<a href="https://trawl.example/dashboard?watch=w1&amp;to=s2">Leith – Kirkcaldy timetable</a>\n' +
        'Departs [-09:12-] {+09:47+} from pier 4 &amp; &lt;b&gt;stops&lt;/b&gt;\n<i>Reason: trigger_text &quot;09:4&quot;</i>',
    );
  });
});

describe('the Mailer against an SMTP server', () => {
  let smtp: SmtpTestServer;
  beforeAll(async () => {
    smtp = await startSmtpServer({ username: 'trawl', password: 's3cret' });
  });
  afterAll(() => smtp.stop());
  const mailer = (overrides: object = {}) =>
    createMailer(
      smtpConfigSchema.parse({
        host: '127.0.0.1',
        port: smtp.port,
        from: 'Trawl <trawl@example.com>',
        username: 'trawl',
        password: 's3cret',
        tls: 'none',
        timeoutMs: 5000,
        ...overrides,
      }),
    );
  const signal = () => new AbortController().signal;

  test('sends from the configured sender, authenticated, with both parts', async () => {
    await mailer().send('ops@example.com', emailOf(change), signal());
    const [mail] = await smtp.waitFor(1);
    expect(mail!.envelope).toEqual({ from: 'trawl@example.com', to: ['ops@example.com'] });
    expect(mail!.user).toBe('trawl');
    expect(mail!.parsed.from?.value).toEqual([{ name: 'Trawl', address: 'trawl@example.com' }]);
    expect(mail!.parsed.to).toMatchObject({ value: [{ address: 'ops@example.com' }] });
    expect(mail!.parsed.subject).toBe('Page changed: Leith <ferries>');
    expect(mail!.parsed.text).toContain('Departs [-09:12-] {+09:47+}');
    expect(mail!.parsed.html).toContain('&lt;b&gt;stops&lt;/b&gt;');
  });

  test('a recipient refused for now may be retried; one refused for good may not; bad credentials say so', async () => {
    smtp.scriptRecipient('busy@example.com', 451);
    smtp.scriptRecipient('nobody@example.com', 550);
    const later = await mailer()
      .send('busy@example.com', emailOf(change), signal())
      .then(
        () => null,
        (e) => e,
      );
    expect(later).toMatchObject({ permanent: false });
    expect(later.message).toMatch(/^mail server: .*451/);
    const never = await mailer()
      .send('nobody@example.com', emailOf(change), signal())
      .then(
        () => null,
        (e) => e,
      );
    expect(never).toMatchObject({ permanent: true });
    expect(never.message).toContain('550');
    const denied = await mailer({ password: 'wrong' })
      .send('ops@example.com', emailOf(change), signal())
      .then(
        () => null,
        (e) => e,
      );
    expect(denied.message).toMatch(/535|Invalid login|Invalid username/);
  });

  test('tls = "starttls" will not send over a connection that cannot be encrypted', async () => {
    const error = await mailer({ tls: 'starttls' })
      .send('ops@example.com', emailOf(change), signal())
      .then(
        () => null,
        (e) => e,
      );
    expect(error?.message).toMatch(/STARTTLS/i);
    expect(createMailer(smtpConfigSchema.parse({ from: 'a@example.com' })).unavailableReason()).toBe(
      'e-mail is not configured: set notify.smtp.host (TRAWL_NOTIFY_SMTP_HOST)',
    );
  });
});
