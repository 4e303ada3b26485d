/**
 * The scrape request (validated with zod, shared by the HTTP API and the CLI) and the immutable
 * Job that carries it through the pipeline.
 */
import { z } from 'zod';

/** Every output format named by the interface; plugins may add more. */
export const SPEC_FORMATS = ['markdown', 'text', 'json', 'llm', 'screenshot', 'links', 'rawHtml', 'attributes', 'query'] as const;

const httpUrl = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .transform((value, ctx) => {
    const candidate = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`;
    try {
      const url = new URL(candidate);
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
    } catch {}
    ctx.addIssue({ code: 'custom', message: 'must be an absolute http(s) URL' });
    return z.NEVER;
  });

const selectorList = z.array(z.string().trim().min(1, 'selectors must not be empty')).max(100);

export const attributeSelectorSchema = z.strictObject({
  selector: z.string().trim().min(1),
  attribute: z.string().trim().min(1),
});

/** Actions are validated in detail by the action plugins; here only the envelope. */
export const actionSchema = z.looseObject({ type: z.string().min(1) });

export const scrapeRequestSchema = z.strictObject({
  url: httpUrl,
  formats: z.array(z.string().min(1)).min(1, 'must list at least one format').max(20).default(['markdown']),
  include_selectors: selectorList.optional(),
  exclude_selectors: selectorList.optional(),
  only_main_content: z.boolean().default(false),
  actions: z.array(actionSchema).max(50).optional(),
  screenshot: z.boolean().default(false),
  mobile: z.boolean().default(false),
  render: z
    .boolean()
    .optional()
    .describe('true: render the page in the browser (runs its JavaScript). false: never render, not even automatically. Unset: render when the job needs it (actions, screenshot, mobile) or when the plain fetch yields an empty app shell.'),
  ignore_action_errors: z
    .boolean()
    .optional()
    .describe('Keep going when an action fails (the failure is listed in `action_errors`) instead of answering 422.'),
  no_cache: z.boolean().default(false),
  query: z.string().max(2000).optional(),
  attribute_selectors: z.array(attributeSelectorSchema).max(100).optional(),
  timeout: z.number().int().min(1000).max(300_000).optional().describe('Overall time limit for this scrape in milliseconds.'),
});

export type ScrapeRequest = z.output<typeof scrapeRequestSchema>;

/** The request fields that need a browser, named for messages; empty when a plain fetch will do. */
export function browserNeeds(options: Pick<ScrapeRequest, 'actions' | 'screenshot' | 'mobile' | 'render' | 'formats'>): string[] {
  const needs: string[] = [];
  if (options.actions?.length) needs.push('actions');
  if (options.screenshot) needs.push('screenshot');
  if (options.formats.includes('screenshot')) needs.push('the screenshot format');
  if (options.mobile) needs.push('mobile');
  if (options.render) needs.push('render');
  return needs;
}

export interface Job {
  readonly url: string;
  readonly formats: readonly string[];
  readonly options: Readonly<ScrapeRequest>;
  readonly workspace: string;
  readonly signal: AbortSignal;
}

export function createJob(options: ScrapeRequest, workspace: string, signal: AbortSignal): Job {
  const formats = [...new Set(options.formats)];
  return Object.freeze({ url: options.url, formats, options: Object.freeze({ ...options, formats }), workspace, signal });
}

/** Result field of a format: most formats use their own name; these two use the spec's field names. */
export function formatField(format: string): string {
  return format === 'json' ? 'extraction' : format === 'query' ? 'query_answer' : format;
}
