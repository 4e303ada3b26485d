/**
 * The internal scrape request: what every wire format (/v1, /v2, the CLI, MCP) parses its input
 * into. Names are camelCase and belong to no wire format. Core owns the fields every scrape has
 * (url, formats, selectors, cache, time limit); plugins declare the fields they provide in their
 * `api.requestFields` (compose.ts joins both into the one request schema).
 */
import { z } from 'zod';
import { SELECTOR_LIMITS } from '../selectors.ts';

/** Every output format named by the interface; plugins may add more. */
export const SPEC_FORMATS = ['markdown', 'text', 'json', 'llm', 'screenshot', 'links', 'rawHtml', 'attributes', 'query'] as const;

export const httpUrl = z
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

/** Length and complexity limits are checked by validateSelectors (core/selectors.ts), with the index named. */
const selectorList = z
  .array(z.string().trim().min(1, 'selectors must not be empty'))
  .max(SELECTOR_LIMITS.count, `at most ${SELECTOR_LIMITS.count} selectors`);

/** Headers the HTTP layer owns: a request may not set them for the target. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'keep-alive',
  'expect',
]);
const MAX_HEADERS = 50;

const requestHeaders = z
  .record(
    z
      .string()
      .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'must be an HTTP header name')
      .refine((name) => {
        const lower = name.toLowerCase();
        return !RESERVED_HEADERS.has(lower) && !lower.startsWith('proxy-');
      }, 'is set by the HTTP client and cannot be sent'),
    // No CR/LF: a value must not start a header of its own.
    z
      .string()
      .max(8192)
      .regex(/^[^\r\n\0]*$/, 'must not contain line breaks'),
  )
  .refine((headers) => Object.keys(headers).length <= MAX_HEADERS, `at most ${MAX_HEADERS} headers`);

/** Core fields in the order validation reports them. */
/** A request's `proxy`: "none", "auto" or a pool of `[fetch.proxies]`, for a scrape and for a map alike. */
export const proxyRoute = z.string().trim().min(1).max(64);

export const coreRequestFields = {
  url: httpUrl,
  formats: z.array(z.string().min(1)).min(1, 'must list at least one format').max(20).default(['markdown']),
  includeSelectors: selectorList.optional(),
  excludeSelectors: selectorList.optional(),
  noCache: z.boolean().default(false),
  timeoutMs: z.number().int().min(1000).max(300_000).optional().describe('Overall time limit for this scrape in milliseconds.'),
  maxAgeMs: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'Answer from the cache only with a result at most this old (ms); 0 never does. The cache keeps results `storage.cacheTtlSeconds` at most.',
    ),
  proxy: proxyRoute
    .optional()
    .describe(
      'How this scrape reaches the target: "none" (direct), the name of a proxy pool from `[fetch.proxies]`, or "auto" (the default route, then after a block the browser and each pool in turn). Unset: `fetch.proxy` when configured, else direct.',
    ),
  headers: requestHeaders
    .optional()
    .describe(
      'Request headers sent to the target (cookies, a user agent, Accept-Language…), on top of the configured ones; hop-by-hop headers cannot be set.',
    ),
};

export interface AttributeSelector {
  selector: string;
  attribute: string;
}

/** An action as requested; its own fields are the action plugin's (validated by its schema). */
export interface RequestedAction {
  type: string;
  [field: string]: unknown;
}

/**
 * The request as the pipeline sees it. The optional fields after the core ones are declared by
 * plugins (the plugin named in each comment validates and documents them); their types live here
 * so that every reader is typed.
 */
export interface ScrapeRequest {
  url: string;
  formats: string[];
  includeSelectors?: string[];
  excludeSelectors?: string[];
  noCache: boolean;
  timeoutMs?: number;
  /** The oldest cached result this scrape accepts (ms); `storage.cacheTtlSeconds` is the bound anyway. */
  maxAgeMs?: number;
  /** Sent to the target with every fetch of this scrape. */
  headers?: Record<string, string>;
  /** `"none"`, a pool's name or `"auto"` (core/net/proxies.ts, core/fetch-attempts.ts); unset: the default route. */
  proxy?: string;
  /** format.query: the question the `query` format answers. */
  query?: string;
  /** transform.main-content */
  onlyMainContent?: boolean;
  /** sink.results: false stores nothing of this scrape. */
  storeInCache?: boolean;
  /** fetcher.browser */
  actions?: RequestedAction[];
  /** fetcher.browser: a full-page screenshot in the result's `screenshot`. */
  screenshot?: boolean;
  /** fetcher.browser */
  mobile?: boolean;
  /** fetcher.browser: true renders, false never renders, unset decides by itself. */
  render?: boolean;
  /** fetcher.browser */
  ignoreActionErrors?: boolean;
  /** format.attributes */
  attributeSelectors?: AttributeSelector[];
  /** format.extract: what to extract (a prompt, a JSON Schema or both). */
  extract?: { prompt?: string; schema?: Record<string, unknown> };
}

/** The request fields that need a browser, named for messages; empty when a plain fetch will do. */
export function browserNeeds(
  request: Pick<ScrapeRequest, 'actions' | 'screenshot' | 'mobile' | 'render' | 'formats'>,
): Array<{ field: keyof ScrapeRequest | null; what: string }> {
  const needs: Array<{ field: keyof ScrapeRequest | null; what: string }> = [];
  if (request.actions?.length) needs.push({ field: 'actions', what: 'actions' });
  if (request.screenshot) needs.push({ field: 'screenshot', what: 'screenshot' });
  if (request.formats.includes('screenshot')) needs.push({ field: null, what: 'the screenshot format' });
  if (request.mobile) needs.push({ field: 'mobile', what: 'mobile' });
  if (request.render) needs.push({ field: 'render', what: 'render' });
  return needs;
}
