/**
 * A run's own webhook in a wire format's shape (/v2: Firecrawl's `crawl.started`, `crawl.page`,
 * `crawl.completed`, `crawl.failed`, `batch_scrape.*`): the request stores the receiver, its
 * headers, its metadata, the events it wants and the format's name; the format itself — how an
 * event's body looks — is handed in by the server at boot (`RunHookFormats`), since core never
 * imports a wire format. The sender that delivers them is in hook-sender.ts.
 */
import type { InjectionToken } from 'tsyringe';
import { z } from 'zod';
import type { ScrapeResult } from '../../model/result.ts';
import { receiverUrlSchema } from '../../net/receiver.ts';
import type { RunRow } from './rows.ts';

export const HOOK_EVENTS = ['started', 'page', 'completed', 'failed'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export const runHookSchema = z.strictObject({
  url: receiverUrlSchema,
  headers: z
    .record(z.string().max(100), z.string().max(8192))
    .refine((h) => Object.keys(h).length <= 50, 'at most 50 headers')
    .default({}),
  metadata: z
    .record(z.string().max(100), z.unknown())
    .refine((m) => JSON.stringify(m).length <= 16_384, 'at most 16 KiB of metadata')
    .default({}),
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
