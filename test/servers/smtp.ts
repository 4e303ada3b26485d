/**
 * An SMTP server on 127.0.0.1 for tests, built on the `smtp-server` package (the protocol side of
 * the library Trawl sends with, but a separate implementation of the server): it takes PLAIN/LOGIN
 * authentication when given credentials, offers STARTTLS only when asked to, parses every message
 * with `mailparser` (headers, text and HTML parts, decoded as a mail client would), and can be
 * scripted to refuse a recipient: a 4xx (try later) or a 5xx (no such mailbox) per RCPT TO.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope's sender and recipients (MAIL FROM, RCPT TO). */
  envelope: { from: string; to: string[] };
  /** Authenticated user, if any. */
  user: string | null;
  parsed: ParsedMail;
}

export interface SmtpTestServer {
  port: number;
  received: ReceivedMail[];
  /** Answers to the next RCPT TO commands for `address`, in order (e.g. 451, then 550); accepted afterwards. */
  scriptRecipient(address: string, ...codes: number[]): void;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  stop(): Promise<void>;
}

export async function startSmtpServer(options: { username?: string; password?: string } = {}): Promise<SmtpTestServer> {
  const received: ReceivedMail[] = [];
  const scripts = new Map<string, number[]>();
  const server = new SMTPServer({
    // No TLS offered: a relay on the local network; the client decides whether that is acceptable.
    disabledCommands: options.username ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    authOptional: !options.username,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === options.username && auth.password === options.password) return callback(null, { user: auth.username });
      callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      const code = scripts.get(address.address)?.shift();
      if (!code) return callback();
      callback(Object.assign(new Error(code >= 500 ? 'No such mailbox' : 'Mailbox busy, try again later'), { responseCode: code }));
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          const mailFrom = session.envelope.mailFrom;
          received.push({
            envelope: { from: mailFrom ? mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address) },
            user: (session.user as string | undefined) ?? null,
            parsed,
          });
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    scriptRecipient: (address, ...codes) => void scripts.set(address, codes),
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} e-mails, got ${received.length}`);
        await Bun.sleep(20);
      }
      return received;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
