/**
 * A webhook receiver on 127.0.0.1 for tests, built the way a real consumer would be: it checks
 * every delivery with the reference `standardwebhooks` library (signature, id, timestamp
 * tolerance) using the secret the test hands it, records what arrived, and answers with scripted
 * statuses per path (e.g. 500 then 200, or 410) — 200 once the script is used up.
 */
import { Webhook } from 'standardwebhooks';

export interface ReceivedDelivery {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** Parsed JSON body. */
  payload: any;
  /** True when the signature verified against the path's secret; false when unsigned or wrong. */
  verified: boolean;
  verifyError: string | null;
  /** The status the receiver answered. */
  answered: number;
}

export interface WebhookReceiver {
  url(path?: string): string;
  /** The secret `path` verifies with (as returned at registration). */
  setSecret(path: string, secret: string): void;
  /** Statuses to answer on `path`, in order; afterwards 200. */
  script(path: string, ...statuses: number[]): void;
  received(path?: string): ReceivedDelivery[];
  /** Resolves once `count` deliveries reached `path` (or any path), rejects after timeoutMs. */
  waitFor(count: number, path?: string, timeoutMs?: number): Promise<ReceivedDelivery[]>;
  stop(): Promise<void>;
}

export function startWebhookReceiver(): WebhookReceiver {
  const secrets = new Map<string, string>();
  const scripts = new Map<string, number[]>();
  const log: ReceivedDelivery[] = [];

  const verify = (path: string, body: string, headers: Record<string, string>): string | null => {
    const secret = secrets.get(path);
    if (!secret) return 'no secret set for this path';
    try {
      new Webhook(secret).verify(body, headers);
      return null;
    } catch (err) {
      return (err as Error).message;
    }
  };

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const body = await req.text();
      const headers = Object.fromEntries(req.headers.entries());
      const verifyError = verify(path, body, headers);
      const answered = scripts.get(path)?.shift() ?? 200;
      let payload: unknown = null;
      try {
        payload = JSON.parse(body);
      } catch {}
      log.push({ path, headers, body, payload, verified: verifyError === null, verifyError, answered });
      return new Response(answered === 200 ? 'ok' : 'no', { status: answered });
    },
  });

  const received = (path?: string) => log.filter((d) => path === undefined || d.path === path);
  return {
    url: (path = '/hook') => `http://127.0.0.1:${server.port}${path}`,
    setSecret: (path, secret) => void secrets.set(path, secret),
    script: (path, ...statuses) => void scripts.set(path, statuses),
    received,
    async waitFor(count, path, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (received(path).length < count) {
        if (Date.now() > deadline)
          throw new Error(`expected ${count} deliveries${path ? ` to ${path}` : ''}, got ${received(path).length}`);
        await Bun.sleep(20);
      }
      return received(path);
    },
    stop: async () => {
      await server.stop(true);
    },
  };
}
