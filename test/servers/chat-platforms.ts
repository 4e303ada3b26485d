/**
 * The chat platforms' incoming webhooks on one HTTPS server on 127.0.0.1, answering as each
 * platform documents: Slack (`/services/T…/B…/…`: 200 `ok`, 400 `invalid_payload` without `text`
 * or `blocks`), Discord (`/api/webhooks/{id}/{token}`: 204, 400 with code 50006 for an empty
 * message or over the embed limits), Teams workflows (`…/workflows/{id}/triggers/manual/paths/invoke`:
 * 202 for an Adaptive Card attachment, 400 otherwise) and Telegram (`/bot{token}/sendMessage`:
 * `{ok:true,result}`, or `{ok:false,error_code:400,description}` without `chat_id`/`text` or over
 * 4096 characters). Any other path is a generic receiver whose Standard Webhooks signature is
 * verified with the reference library. Tests reach it under the platforms' own host names
 * (`hosts` for `fetch.resolve` and the client's `connectPorts`, `RECEIVERS_CERT` as trusted CA);
 * each path can be scripted to answer failures first.
 */
import { Webhook } from 'standardwebhooks';
import { RECEIVERS_CERT, RECEIVERS_KEY } from '../helpers/tls-cert.ts';

export type Platform = 'slack' | 'discord' | 'teams' | 'telegram' | 'generic';

export interface ChatDelivery {
  platform: Platform;
  host: string;
  path: string;
  headers: Record<string, string>;
  payload: any;
  /** Generic receivers: whether the signature verified with the secret set for the path. */
  verified: boolean;
  answered: number;
}

export const CHAT_HOSTS = [
  'hooks.slack.com',
  'discord.com',
  'api.telegram.org',
  'prod-12.westus.logic.azure.com',
  'hooks.example.com',
] as const;

const platformOf = (host: string, path: string): Platform => {
  if (host === 'hooks.slack.com' && path.startsWith('/services/')) return 'slack';
  if (host === 'discord.com' && /^\/api(?:\/v\d+)?\/webhooks\//.test(path)) return 'discord';
  if (/\/workflows\/[\w-]+\/triggers\/manual\/paths\/invoke$/.test(path)) return 'teams';
  if (host === 'api.telegram.org' && /^\/bot\d+:[\w-]+\/sendMessage$/.test(path)) return 'telegram';
  return 'generic';
};

const text = (status: number, body: string) => new Response(body, { status, headers: { 'content-type': 'text/plain' } });
const json = (status: number, body: unknown) => Response.json(body, { status });

/** The platform's answer to a well-formed or malformed message (not a scripted failure). */
function answer(platform: Platform, payload: any, url: URL): Response {
  switch (platform) {
    case 'slack':
      return payload && (typeof payload.text === 'string' || Array.isArray(payload.blocks)) && (payload.blocks?.length ?? 0) <= 50
        ? text(200, 'ok')
        : text(400, 'invalid_payload');
    case 'discord': {
      const embeds: any[] = payload?.embeds ?? [];
      const chars = embeds.reduce(
        (n, e) =>
          n +
          (e.title?.length ?? 0) +
          (e.description?.length ?? 0) +
          (e.author?.name?.length ?? 0) +
          (e.footer?.text?.length ?? 0) +
          (e.fields ?? []).reduce((k: number, f: any) => k + f.name.length + f.value.length, 0),
        0,
      );
      const ok =
        (payload?.content || embeds.length) &&
        embeds.length <= 10 &&
        chars <= 6000 &&
        embeds.every((e) => (e.description?.length ?? 0) <= 4096);
      return ok ? new Response(null, { status: 204 }) : json(400, { message: 'Cannot send an empty message', code: 50006 });
    }
    case 'teams': {
      const card = payload?.attachments?.[0];
      return payload?.type === 'message' &&
        card?.contentType === 'application/vnd.microsoft.card.adaptive' &&
        card.content?.type === 'AdaptiveCard'
        ? new Response(null, { status: 202 })
        : text(400, 'Bad Request');
    }
    case 'telegram': {
      const chatId = payload?.chat_id ?? url.searchParams.get('chat_id');
      if (!chatId || typeof payload?.text !== 'string' || !payload.text.length || payload.text.length > 4096) {
        return json(400, { ok: false, error_code: 400, description: 'Bad Request: message text is empty' });
      }
      return json(200, {
        ok: true,
        result: { message_id: 1, chat: { id: Number(chatId) }, date: Math.floor(Date.now() / 1000), text: payload.text },
      });
    }
    default:
      return text(200, 'ok');
  }
}

export interface ChatPlatforms {
  port: number;
  /** `https://<host><path>`: the URL as a user would paste it. */
  url(host: (typeof CHAT_HOSTS)[number], pathAndQuery: string): string;
  /** For `fetch.resolve` and the HTTP client's `connectPorts`. */
  resolve: Record<string, string>;
  connectPorts: Record<string, number>;
  setSecret(path: string, secret: string): void;
  /** Statuses to answer on `path` before the platform's own answer. */
  script(path: string, ...statuses: number[]): void;
  received(platform?: Platform): ChatDelivery[];
  waitFor(count: number, platform?: Platform, timeoutMs?: number): Promise<ChatDelivery[]>;
  stop(): Promise<void>;
}

export function startChatPlatforms(): ChatPlatforms {
  const log: ChatDelivery[] = [];
  const scripts = new Map<string, number[]>();
  const secrets = new Map<string, string>();
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    tls: { key: RECEIVERS_KEY, cert: RECEIVERS_CERT },
    async fetch(req) {
      const url = new URL(req.url);
      const host = (req.headers.get('host') ?? '').replace(/:\d+$/, '');
      const body = await req.text();
      const headers = Object.fromEntries(req.headers.entries());
      let payload: any = null;
      try {
        payload = JSON.parse(body);
      } catch {}
      const platform = platformOf(host, url.pathname);
      let verified = false;
      if (platform === 'generic' && secrets.has(url.pathname)) {
        try {
          new Webhook(secrets.get(url.pathname)!).verify(body, headers);
          verified = true;
        } catch {}
      }
      const scripted = scripts.get(url.pathname)?.shift();
      const response = scripted ? text(scripted, 'scripted failure') : answer(platform, payload, url);
      log.push({ platform, host, path: url.pathname, headers, payload, verified, answered: response.status });
      return response;
    },
  });
  const received = (platform?: Platform) => log.filter((d) => !platform || d.platform === platform);
  return {
    port: server.port!,
    url: (host, pathAndQuery) => `https://${host}${pathAndQuery}`,
    resolve: Object.fromEntries(CHAT_HOSTS.map((h) => [h, '127.0.0.1'])),
    connectPorts: Object.fromEntries(CHAT_HOSTS.map((h) => [h, server.port!])),
    setSecret: (path, secret) => void secrets.set(path, secret),
    script: (path, ...statuses) => void scripts.set(path, statuses),
    received,
    async waitFor(count, platform, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (received(platform).length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} ${platform ?? ''} deliveries, got ${received(platform).length}`);
        await Bun.sleep(20);
      }
      return received(platform);
    },
    stop: async () => {
      await server.stop(true);
    },
  };
}
