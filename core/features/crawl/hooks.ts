/**
 * A run's own webhook in a wire format's shape (/v2: Firecrawl's `crawl.started`, `crawl.page`,
 * `crawl.completed`, `crawl.failed`, `batch_scrape.*`): the request stores the receiver, its
 * headers, its metadata, the events it wants and the format's name; the format itself — how an
 * event's body looks — is handed in by the server at boot (`RunHookFormats`), since core never
 * imports a wire format. Deliveries are webhook jobs like any (retried, SSRF-guarded, logged),
 * next to the events registered webhooks get in Trawl's own shape.
 */
import type { InjectionToken } from 'tsyringe';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { ScrapeResult } from '../../model/result.ts';
import { receiverUrlSchema } from '../../net/receiver.ts';
import type { EventBus } from '../../services.ts';
import { storedRequest } from './legacy.ts';
import type { RunRow } from './store.ts';

export const HOOK_EVENTS = ['started', 'page', 'completed', 'failed'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export const runHookSchema = z.strictObject({
  url: receiverUrlSchema,
  headers: z.record(z.string().max(100), z.string().max(8192)).refine((h) => Object.keys(h).length <= 50, 'at most 50 headers').default({}),
  metadata: z.record(z.string().max(100), z.unknown()).refine((m) => JSON.stringify(m).length <= 16_384, 'at most 16 KiB of metadata').default({}),
  events: z.array(z.enum(HOOK_EVENTS)).default([...HOOK_EVENTS]),
  /** The name of the format that renders its bodies. */
  format: z.string().min(1),
});
export type RunHook = z.output<typeof runHookSchema>;

export interface RunHookEvent {
  type: HookEvent;
  run: RunRow;
  hook: RunHook;
  /** `page` events: the page, with its result or why it failed. */
  page?: { url: string; result?: ScrapeResult; error?: string };
}

export interface RunHookFormat {
  /** How deliveries are signed (`firecrawl`: X-Firecrawl-Signature with `webhooks.hmacSecret`). */
  signature: 'firecrawl';
  /** The event's JSON body. */
  render(event: RunHookEvent): Record<string, unknown>;
}

export type RunHookFormats = Readonly<Record<string, RunHookFormat>>;
export const RunHookFormatsToken = Symbol('RunHookFormats') as InjectionToken<RunHookFormats>;

export type HookSender = (run: RunRow, type: HookEvent, page?: RunHookEvent['page']) => Promise<void>;

/** Sends a run's events to its hook, when it has one that wants them; the formats and bus are read when needed. */
export function createHookSender(formats: () => RunHookFormats, events: () => EventBus | null, logger: Logger): HookSender {
  return async (run, type, page) => {
    const hook = storedRequest(run.kind, run.request).hook;
    if (!hook || !hook.events.includes(type)) return;
    const format = formats()[hook.format];
    const bus = events();
    if (!format || !bus) {
      logger.warn({ id: run.id, format: hook.format }, 'run webhook not sent: its format or the event bus is not available');
      return;
    }
    const body = format.render({ type, run, hook, page });
    await bus.deliver({ workspace: run.workspace, event: String(body.type ?? type), url: hook.url, body: JSON.stringify(body), headers: hook.headers, signature: format.signature });
  };
}
