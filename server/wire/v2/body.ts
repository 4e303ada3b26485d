/**
 * What every /v2 body schema (request.ts, run-request.ts) shares: Firecrawl's URL and webhook
 * shapes, and the reporting of issues under /v2 field names, whether found here or by the internal
 * schema a body is converted into.
 */
import { z } from 'zod';
import { receiverUrlSchema } from '../../../core/net/receiver.ts';
import { convertScrapeOptions, ignoredOptions, v2FieldName, type Converted } from './scrape-options.ts';

export type Ctx = z.RefinementCtx;

/** Firecrawl's webhook object (a bare URL string means all events, no headers, no metadata). */
export interface V2Webhook {
  url: string;
  headers: Record<string, string>;
  metadata: Record<string, unknown>;
  events: Array<'started' | 'page' | 'completed' | 'failed'>;
}

const WEBHOOK_EVENTS = ['started', 'page', 'completed', 'failed'] as const;
export const webhookSchema = z
  .union([
    receiverUrlSchema,
    z.object({
      url: receiverUrlSchema,
      headers: z.record(z.string().max(100), z.string().max(8192)).default({}),
      metadata: z.record(z.string().max(100), z.unknown()).default({}),
      events: z.array(z.enum(WEBHOOK_EVENTS)).default([...WEBHOOK_EVENTS]),
    }),
  ])
  .transform(
    (hook): V2Webhook => (typeof hook === 'string' ? { url: hook, headers: {}, metadata: {}, events: [...WEBHOOK_EVENTS] } : hook),
  );

/** A URL as Firecrawl takes it: one without a scheme is http://. */
export const withScheme = (url: string) => (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`);
export const v2Url = z.string().trim().min(1, 'must not be empty').max(8192);

export const issue = (ctx: Ctx, path: PropertyKey[], message: string) => ctx.addIssue({ code: 'custom', path, message });

/** The internal schema's issues, under /v2 names (`includeSelectors` → `includeTags`). */
export function forward(error: z.ZodError, ctx: Ctx, prefix: PropertyKey[] = []): void {
  for (const found of error.issues.slice(0, 20)) {
    const [first, ...rest] = found.path;
    const path = typeof first === 'string' ? [v2FieldName(first), ...rest] : found.path;
    issue(ctx, [...prefix, ...path], found.message);
  }
}

/** Converted options, or null after reporting its issues. */
export function converted(
  body: Record<string, unknown>,
  ctx: Ctx,
  known: ReadonlySet<string>,
  prefix: PropertyKey[] = [],
): Converted | null {
  const result = convertScrapeOptions(body as Parameters<typeof convertScrapeOptions>[0]);
  result.warnings.push(...ignoredOptions(body, known).map((w) => (prefix.length ? `${prefix.join('.')}: ${w}` : w)));
  for (const found of result.issues) issue(ctx, [...prefix, ...found.path], found.message);
  return result.issues.length ? null : result;
}
