/**
 * /v2 request bodies parsed into the internal model: POST /v2/scrape, /v2/crawl (its regex path
 * filters, `limit`, `maxDiscoveryDepth`, `crawlEntireDomain`, `delay`, `scrapeOptions`, `webhook`),
 * /v2/batch/scrape (URLs beside flattened scrape options, invalid URLs set aside), /v2/map and
 * /v2/search. Each schema's output is the internal request plus what the /v2 answer needs besides
 * (`warnings` for options accepted and not carried out, the URL as sent, the webhook). Unknown keys
 * are accepted and named in a warning: the SDK forwards whatever a caller sets. Validation issues
 * name the /v2 fields and become the 400's `details`.
 */
import { z } from 'zod';
import type { BatchRequest, CrawlRequest } from '../../../core/features/crawl/schema.ts';
import { crawlExtraFields } from '../../../core/features/crawl/schema.ts';
import { patternProblem } from '../../../core/features/crawl/patterns.ts';
import { runHookSchema } from '../../../core/features/crawl/hooks.ts';
import type { CrawlService } from '../../../core/features/crawl/service.ts';
import type { MapRequest } from '../../../core/features/map/map.ts';
import { MAP_DEFAULT_LIMIT, MAP_MAX_LIMIT, mapRequestSchema, mapSitemapMode } from '../../../core/features/map/map.ts';
import { SEARCH_MAX_RESULTS, searchRequestSchema, type SearchRequest } from '../../../core/features/search/request.ts';
import type { ComposedRequest } from '../../../core/model/compose.ts';
import { httpUrl, type ScrapeRequest } from '../../../core/model/request.ts';
import { receiverUrlSchema } from '../../../core/net/receiver.ts';
import { V2_HOOK_FORMAT } from './webhooks.ts';
import { convertScrapeOptions, ignoredOptions, v2FieldName, v2ScrapeOptionFields, type Converted, type V2Proxy } from './scrape-options.ts';
import { oncePer } from '../once.ts';

type Ctx = z.RefinementCtx;

/** Firecrawl's webhook object (a bare URL string means all events, no headers, no metadata). */
export interface V2Webhook {
  url: string;
  headers: Record<string, string>;
  metadata: Record<string, unknown>;
  events: Array<'started' | 'page' | 'completed' | 'failed'>;
}

const WEBHOOK_EVENTS = ['started', 'page', 'completed', 'failed'] as const;
const webhookSchema = z
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
const withScheme = (url: string) => (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`);
const v2Url = z.string().trim().min(1, 'must not be empty').max(8192);

const issue = (ctx: Ctx, path: PropertyKey[], message: string) => ctx.addIssue({ code: 'custom', path, message });

/** The internal schema's issues, under /v2 names (`includeSelectors` → `includeTags`). */
function forward(error: z.ZodError, ctx: Ctx, prefix: PropertyKey[] = []): void {
  for (const found of error.issues.slice(0, 20)) {
    const [first, ...rest] = found.path;
    const path = typeof first === 'string' ? [v2FieldName(first), ...rest] : found.path;
    issue(ctx, [...prefix, ...path], found.message);
  }
}

/** Converted options, or null after reporting its issues. */
function converted(body: Record<string, unknown>, ctx: Ctx, known: ReadonlySet<string>, prefix: PropertyKey[] = []): Converted | null {
  const result = convertScrapeOptions(body as Parameters<typeof convertScrapeOptions>[0]);
  result.warnings.push(...ignoredOptions(body, known).map((w) => (prefix.length ? `${prefix.join('.')}: ${w}` : w)));
  for (const found of result.issues) issue(ctx, [...prefix, ...found.path], found.message);
  return result.issues.length ? null : result;
}

export interface V2Scrape {
  request: ScrapeRequest;
  /** The URL exactly as sent (`metadata.sourceURL`). */
  sourceUrl: string;
  /** The formats the Document shows: none for `formats: []` (metadata only), which still renders markdown. */
  shown: string[];
  warnings: string[];
  /** Firecrawl's proxy value; the route maps it (server/wire/v2/proxy.ts). */
  proxy: V2Proxy;
}

/** The body of POST /v2/scrape. */
export const v2ScrapeSchema = oncePer((composed: ComposedRequest) =>
  z.looseObject({ url: v2Url, ...v2ScrapeOptionFields }).transform((body, ctx): V2Scrape => {
    const options = converted(body, ctx, new Set(['url']));
    if (!options) return z.NEVER;
    const parsed = composed.schema.safeParse({ url: withScheme(body.url), ...options.options });
    if (!parsed.success) {
      forward(parsed.error, ctx);
      return z.NEVER;
    }
    const request = parsed.data as unknown as ScrapeRequest;
    return {
      request,
      sourceUrl: body.url,
      shown: body.formats?.length === 0 ? [] : request.formats,
      warnings: options.warnings,
      proxy: options.proxy,
    };
  }),
);

const CRAWL_KNOWN = new Set([
  'url',
  'prompt',
  'includePaths',
  'excludePaths',
  'maxDiscoveryDepth',
  'limit',
  'sitemap',
  'crawlEntireDomain',
  'allowExternalLinks',
  'allowSubdomains',
  'delay',
  'webhook',
  'scrapeOptions',
  'regexOnFullURL',
]);
const pathList = z.array(z.string().max(1000)).max(50).default([]);

export interface V2Crawl {
  request: CrawlRequest;
  warnings: string[];
  proxy: V2Proxy;
}

function checkPatterns(body: { includePaths: string[]; excludePaths: string[] }, ctx: Ctx): void {
  for (const field of ['includePaths', 'excludePaths'] as const) {
    body[field].forEach((pattern, index) => {
      const problem = patternProblem(pattern, 'regex');
      if (problem) issue(ctx, [field, index], `invalid regular expression: ${problem}`);
    });
  }
}

/** The body of POST /v2/crawl. */
export const v2CrawlSchema = oncePer((service: CrawlService) => {
  const internal = z.strictObject({
    ...service.fields.crawl,
    includePaths: z.array(z.string()),
    excludePaths: z.array(z.string()),
    ...crawlExtraFields,
    scrapeOptions: service.fields.scrapeOptions,
  });
  const { maxPagesLimit } = service.limits;
  return z
    .looseObject({
      url: v2Url,
      prompt: z.string().max(10_000).optional(),
      includePaths: pathList,
      excludePaths: pathList,
      maxDiscoveryDepth: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).optional(),
      sitemap: z.enum(['skip', 'include', 'only']).optional(),
      crawlEntireDomain: z.boolean().default(false),
      allowExternalLinks: z.boolean().default(false),
      allowSubdomains: z.boolean().default(false),
      regexOnFullURL: z.boolean().default(false),
      delay: z.number().positive().max(60).optional(),
      webhook: webhookSchema.optional(),
      scrapeOptions: z.looseObject(v2ScrapeOptionFields).prefault({}),
    })
    .transform((body, ctx): V2Crawl => {
      if (body.prompt)
        issue(ctx, ['prompt'], 'prompt is not supported by this server: set includePaths, limit and the other crawl options instead');
      if (body.regexOnFullURL)
        issue(ctx, ['regexOnFullURL'], 'is not supported by this server: includePaths and excludePaths are matched against the URL path');
      checkPatterns(body, ctx);
      const options = converted(body.scrapeOptions, ctx, new Set(), ['scrapeOptions']);
      if (!options) return z.NEVER;
      const warnings = [...ignoredOptions(body, CRAWL_KNOWN), ...options.warnings];
      const url = withScheme(body.url);
      const limit = body.limit === undefined ? undefined : Math.min(body.limit, maxPagesLimit);
      if (body.limit !== undefined && body.limit > maxPagesLimit)
        warnings.push(`limit: at most ${maxPagesLimit} pages per crawl on this server (crawl.maxPagesLimit)`);
      let start = '/';
      try {
        start = new URL(url).pathname;
      } catch {}
      const parsed = internal.safeParse({
        url,
        ...(body.maxDiscoveryDepth !== undefined ? { maxDepth: body.maxDiscoveryDepth } : {}),
        ...(limit !== undefined ? { maxPages: limit } : {}),
        allowSubdomains: body.allowSubdomains,
        allowExternalLinks: body.allowExternalLinks,
        includePaths: body.includePaths,
        excludePaths: body.excludePaths,
        pathSyntax: 'regex',
        // Without crawlEntireDomain a crawl stays below its start page, as Firecrawl's does.
        ...(!body.crawlEntireDomain && start !== '/' ? { pathPrefix: start.replace(/\/$/, '') } : {}),
        ...(body.delay !== undefined ? { delayMs: Math.round(body.delay * 1000) } : {}),
        ...(body.webhook ? { hook: { ...body.webhook, format: V2_HOOK_FORMAT } } : {}),
        // Firecrawl's default: the site's sitemaps seed the crawl too.
        sitemap: body.sitemap ?? 'include',
        scrapeOptions: options.options,
      });
      if (!parsed.success) {
        forward(parsed.error, ctx);
        return z.NEVER;
      }
      return { request: parsed.data as CrawlRequest, warnings, proxy: options.proxy };
    });
});

const BATCH_KNOWN = new Set(['urls', 'webhook', 'appendToId', 'ignoreInvalidURLs', 'maxConcurrency']);

export interface V2Batch {
  request: BatchRequest;
  invalidURLs: string[];
  warnings: string[];
  proxy: V2Proxy;
}

/** The body of POST /v2/batch/scrape: URLs and the scrape options side by side. */
export const v2BatchSchema = oncePer((service: CrawlService) => {
  const { batchMaxUrls } = service.limits;
  return z
    .looseObject({
      ...v2ScrapeOptionFields,
      urls: z.array(z.string().max(8192)).min(1, 'must list at least one URL').max(batchMaxUrls),
      ignoreInvalidURLs: z.boolean().default(true),
      appendToId: z.string().optional(),
      webhook: webhookSchema.optional(),
    })
    .transform((body, ctx): V2Batch => {
      if (body.appendToId !== undefined) issue(ctx, ['appendToId'], 'is not supported by this server: start a new batch');
      const urls: string[] = [];
      const invalidURLs: string[] = [];
      body.urls.forEach((url, index) => {
        const parsed = httpUrl.safeParse(withScheme(url.trim()));
        if (parsed.success) urls.push(parsed.data);
        else if (body.ignoreInvalidURLs) invalidURLs.push(url);
        else issue(ctx, ['urls', index], 'must be an absolute http(s) URL');
      });
      if (!urls.length && body.ignoreInvalidURLs) issue(ctx, ['urls'], 'No valid URLs provided');
      const options = converted(body, ctx, BATCH_KNOWN);
      if (!options) return z.NEVER;
      const scrapeOptions = service.fields.scrapeOptions.safeParse(options.options);
      if (!scrapeOptions.success) {
        forward(scrapeOptions.error, ctx);
        return z.NEVER;
      }
      const warnings = [...options.warnings];
      if (invalidURLs.length) warnings.push(`${invalidURLs.length} invalid URL(s) were left out (see invalidURLs)`);
      const hook = body.webhook ? runHookSchema.safeParse({ ...body.webhook, format: V2_HOOK_FORMAT }) : null;
      if (hook && !hook.success) {
        forward(hook.error, ctx, ['webhook']);
        return z.NEVER;
      }
      const request = { urls, scrapeOptions: scrapeOptions.data, ...(hook ? { hook: hook.data } : {}) } as BatchRequest;
      return { request, invalidURLs, warnings, proxy: options.proxy };
    });
});

const MAP_KNOWN = new Set(['url', 'search', 'sitemap', 'includeSubdomains', 'ignoreQueryParameters', 'limit', 'filterByPath']);

/** The body of POST /v2/map (`sitemap` and `filterByPath` as /v1's `sitemap` and `filter_by_path`). */
export const v2MapSchema = z
  .looseObject({
    url: v2Url,
    search: z.string().max(500).optional(),
    sitemap: mapSitemapMode.default('include'),
    includeSubdomains: z.boolean().default(true),
    ignoreQueryParameters: z.boolean().default(true),
    limit: z.number().int().min(1).max(MAP_MAX_LIMIT).default(MAP_DEFAULT_LIMIT),
    filterByPath: z
      .boolean()
      .default(true)
      .describe("Only URLs at or below the start URL's path (as /v1/map's `filter_by_path`); false lists the whole site."),
  })
  .transform((body, ctx): { request: MapRequest; warnings: string[] } => {
    const warnings = ignoredOptions(body, MAP_KNOWN);
    if (!body.ignoreQueryParameters)
      warnings.push('ignoreQueryParameters: false is not supported; URLs differing only in their query order are one link');
    const parsed = mapRequestSchema.safeParse({
      url: withScheme(body.url),
      ...(body.search?.trim() ? { search: body.search } : {}),
      limit: body.limit,
      include_subdomains: body.includeSubdomains,
      sitemap: body.sitemap,
      filter_by_path: body.filterByPath,
    });
    if (!parsed.success) {
      forward(parsed.error, ctx);
      return z.NEVER;
    }
    return { request: parsed.data, warnings };
  });

const SEARCH_KNOWN = new Set(['query', 'limit', 'sources', 'country', 'scrapeOptions', 'timeout']);
const source = z.union([z.string().min(1), z.looseObject({ type: z.string().min(1) })]);

/** The body of POST /v2/search: `limit` per source, `scrapeOptions.formats` (default none: no scraping). */
export const v2SearchSchema = oncePer((composed: ComposedRequest) =>
  z
    .looseObject({
      query: z.string(),
      limit: z.number().int().min(1).max(100).default(10),
      sources: z.array(source).max(10).optional(),
      country: z.string().optional(),
      timeout: z.number().int().min(1000).max(300_000).optional(),
      scrapeOptions: z.looseObject(v2ScrapeOptionFields).optional(),
    })
    .transform((body, ctx): { request: SearchRequest; warnings: string[]; proxy: V2Proxy } => {
      const warnings = ignoredOptions(body, SEARCH_KNOWN);
      const others = (body.sources ?? []).map((s) => (typeof s === 'string' ? s : s.type)).filter((s) => s !== 'web');
      if (others.length) warnings.push(`sources: only web results are available here; ${others.join(', ')} left out`);
      if (body.limit > SEARCH_MAX_RESULTS) warnings.push(`limit: at most ${SEARCH_MAX_RESULTS} results per search on this server`);
      const scrape = (body.scrapeOptions?.formats?.length ?? 0) > 0;
      let options: Converted | null = null;
      if (scrape) {
        options = converted(body.scrapeOptions!, ctx, new Set(), ['scrapeOptions']);
        if (!options) return z.NEVER;
        warnings.push(...options.warnings);
      }
      const { formats = ['markdown'], ...scrapeOptions } = (options?.options ?? {}) as { formats?: string[] };
      const parsed = searchRequestSchema.safeParse({
        query: body.query,
        numResults: Math.min(body.limit, SEARCH_MAX_RESULTS),
        scrape,
        formats,
        ...(body.country ? { country: body.country } : {}),
      });
      if (!parsed.success) {
        forward(parsed.error, ctx);
        return z.NEVER;
      }
      const checked = scrape ? composed.schema.omit({ url: true, formats: true }).partial().safeParse(scrapeOptions) : null;
      if (checked && !checked.success) {
        forward(checked.error, ctx, ['scrapeOptions']);
        return z.NEVER;
      }
      const timeout = body.timeout !== undefined && scrape ? { timeoutMs: body.timeout } : {};
      return {
        request: { ...parsed.data, ...(checked ? { scrapeOptions: { ...timeout, ...checked.data } } : {}) },
        warnings,
        proxy: options?.proxy ?? 'auto',
      };
    }),
);
