/**
 * /v2 bodies that start a run: POST /v2/crawl (its regex path filters, `limit`,
 * `maxDiscoveryDepth`, `crawlEntireDomain`, `delay`, `scrapeOptions`, `webhook`) and
 * /v2/batch/scrape (URLs beside flattened scrape options, invalid URLs set aside), parsed into the
 * crawl feature's requests. Conventions as in request.ts.
 */
import { z } from 'zod';
import type { BatchRequest, CrawlRequest } from '../../../core/features/crawl/schema.ts';
import { crawlExtraFields } from '../../../core/features/crawl/schema.ts';
import { patternProblem } from '../../../core/features/crawl/patterns.ts';
import { runHookSchema } from '../../../core/features/crawl/hooks.ts';
import type { CrawlService } from '../../../core/features/crawl/service.ts';
import { httpUrl } from '../../../core/model/request.ts';
import { V2_HOOK_FORMAT } from './webhooks.ts';
import { ignoredOptions, v2ScrapeOptionFields, type V2Proxy } from './scrape-options.ts';
import { oncePer } from '../../../core/once.ts';
import { converted, forward, issue, v2Url, webhookSchema, withScheme, type Ctx } from './body.ts';

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
