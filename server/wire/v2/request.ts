/**
 * /v2 request bodies parsed into the internal model: POST /v2/scrape, /v2/map and /v2/search here,
 * the bodies that start a run (/v2/crawl, /v2/batch/scrape) in run-request.ts. Each schema's output
 * is the internal request plus what the /v2 answer needs besides (`warnings` for options accepted
 * and not carried out, the URL as sent, the webhook). Unknown keys are accepted and named in a
 * warning: the SDK forwards whatever a caller sets. Validation issues name the /v2 fields and
 * become the 400's `details`.
 */
import { z } from 'zod';
import type { MapRequest } from '../../../core/features/map/map.ts';
import { MAP_DEFAULT_LIMIT, MAP_MAX_LIMIT, mapRequestSchema, mapSitemapMode } from '../../../core/features/map/map.ts';
import { SEARCH_MAX_RESULTS, searchRequestSchema, type SearchRequest } from '../../../core/features/search/request.ts';
import type { ComposedRequest } from '../../../core/model/compose.ts';
import type { ScrapeRequest } from '../../../core/model/request.ts';
import { ignoredOptions, v2ScrapeOptionFields, type Converted, type V2Proxy } from './scrape-options.ts';
import { oncePer } from '../../../core/once.ts';
import { converted, forward, v2Url, withScheme } from './body.ts';

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
