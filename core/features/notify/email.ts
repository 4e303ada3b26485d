/**
 * E-mail for `mailto:` targets: a notification as plain text with a simple HTML part (every value
 * escaped, sizes bounded), and the Mailer that sends it through the configured SMTP server with
 * nodemailer. The SMTP server is the operator's choice, so it is reached wherever it is (like a
 * configured search provider); what a page says only ever lands in the message's text.
 */
import { createTransport } from 'nodemailer';
import type { MailContent, Mailer } from '../../services.ts';
import type { SmtpSettings } from './config.ts';
import { cut, type Notification } from './notification.ts';

const MAX_SUBJECT = 200;
const MAX_ITEM_TEXT = 8000;
const MAX_ITEMS = 20;

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
// A header must stay one line whatever the page's title holds.
const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

export function emailOf(n: Notification): MailContent {
  const items = n.items.slice(0, MAX_ITEMS);
  const headline = `${n.headline(n.items.length)}: ${n.source}`;
  const text = [
    headline,
    ...items.map((item) =>
      [
        '',
        item.heading,
        ...(item.headingUrl ? [item.headingUrl] : []),
        '',
        cut(item.text, MAX_ITEM_TEXT),
        '',
        ...item.facts.map((f) => `${f.name}: ${f.value}`),
        `${item.link.label}: ${item.link.url}`,
      ].join('\n'),
    ),
  ].join('\n');
  const cell = 'padding:2px 12px 2px 0;vertical-align:top';
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:15px;color:#1d232a">',
    `<p style="color:#68727d">${escapeHtml(headline)}</p>`,
    ...items.map((item) =>
      [
        `<h2 style="font-size:17px;margin:16px 0 4px">${item.headingUrl ? `<a href="${escapeHtml(item.headingUrl)}">${escapeHtml(item.heading)}</a>` : escapeHtml(item.heading)}</h2>`,
        `<pre style="white-space:pre-wrap;font:14px/1.4 ui-monospace,monospace;background:#f6f7f9;padding:8px;border-radius:6px">${escapeHtml(cut(item.text, MAX_ITEM_TEXT))}</pre>`,
        `<table>${item.facts.map((f) => `<tr><td style="${cell};color:#68727d">${escapeHtml(f.name)}</td><td style="${cell}">${escapeHtml(f.value)}</td></tr>`).join('')}</table>`,
        `<p><a href="${escapeHtml(item.link.url)}">${escapeHtml(item.link.label)}</a></p>`,
      ].join('\n'),
    ),
    '</body></html>',
  ].join('\n');
  return { subject: cut(oneLine(headline), MAX_SUBJECT), text, html };
}

/** The setting `mailto:` targets need and lack, or null when e-mail can be sent. */
export function smtpMissing(smtp: SmtpSettings): string | null {
  if (!smtp.host) return 'notify.smtp.host (TRAWL_NOTIFY_SMTP_HOST)';
  if (!smtp.from) return 'notify.smtp.from (TRAWL_NOTIFY_SMTP_FROM)';
  return null;
}

export function createMailer(smtp: SmtpSettings): Mailer {
  const missing = smtpMissing(smtp);
  const transport = missing
    ? null
    : createTransport({
        host: smtp.host,
        port: smtp.port,
        secure: smtp.tls === 'implicit',
        requireTLS: smtp.tls === 'starttls',
        ignoreTLS: smtp.tls === 'none',
        ...(smtp.username ? { auth: { user: smtp.username, pass: smtp.password ?? '' } } : {}),
        connectionTimeout: smtp.timeoutMs,
        greetingTimeout: smtp.timeoutMs,
        socketTimeout: smtp.timeoutMs,
      });
  return {
    unavailableReason: () => (missing ? `e-mail is not configured: set ${missing}` : null),
    async send(to, mail, signal) {
      if (!transport) throw new Error(`e-mail is not configured: set ${missing}`);
      signal.throwIfAborted();
      const sending = transport.sendMail({ from: smtp.from, to, subject: mail.subject, text: mail.text, html: mail.html });
      sending.catch(() => {});
      // nodemailer takes no signal: a shutdown stops waiting (the next run repeats the attempt).
      const aborted = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
      try {
        await Promise.race([sending, aborted]);
      } catch (err) {
        if (signal.aborted) throw err;
        const { responseCode, code } = err as { responseCode?: number; code?: string };
        // The server refused the address itself (5xx to RCPT TO): asking again will not change its answer.
        const permanent = code === 'EENVELOPE' && responseCode !== undefined && responseCode >= 500;
        throw Object.assign(new Error(`mail server: ${(err as Error).message}`), { permanent });
      }
    },
  };
}
