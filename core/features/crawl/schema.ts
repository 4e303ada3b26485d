/**
 * The internal crawl and batch requests (camelCase; wire formats parse into them, see
 * server/wire/*). Their scrape options are the scrape request without `url` — the composed schema
 * of the installed plugins, handed in — so crawls and batches accept exactly what a scrape
 * accepts. Defaults and upper bounds of `maxDepth`, `maxPages` and the batch size come from
 * `[crawl]` in the config, which is why the schemas are built from it.
 */
import { z } from 'zod';
import type { CrawlSettings } from './config.ts';
import { httpUrl, type ScrapeRequest } from '../../model/request.ts';
import { receiverUrlSchema } from '../../net/receiver.ts';
import { globProblem } from './globs.ts';
import { patternProblem, type PathSyntax } from './patterns.ts';
import { runHookSchema, type RunHook } from './hooks.ts';
import { pathGlob } from './scope.ts';

export type CrawlLimits = CrawlSettings;

/** What every page of a crawl or batch is scraped with. */
export type ScrapeOptions = Omit<ScrapeRequest, 'url'>;

export interface CrawlRequest {
  url: string;
  maxDepth: number;
  maxPages: number;
  allowSubdomains: boolean;
  allowExternalLinks: boolean;
  includePaths: string[];
  excludePaths: string[];
  webhookUrl?: string;
  /** How the path lists are written: globs unless a wire format says otherwise (/v2: regexes). */
  pathSyntax?: PathSyntax;
  /** Links are followed only below this path (the start page's, unless the whole site is asked for). */
  pathPrefix?: string;
  /** Minimum gap between two fetches of one host for this crawl; a larger robots.txt Crawl-delay wins. */
  delayMs?: number;
  /** The run's own webhook in a wire format's shape (hooks.ts). */
  hook?: RunHook;
  /**
   * `include`: the site's sitemaps and feeds (the map feature) seed the crawl beside the start
   * page's links; `only`: they are the crawl (with the start page), no links are followed;
   * `skip` (unset): links only.
   */
  sitemap?: SitemapMode;
  scrapeOptions: ScrapeOptions;
}

export interface BatchRequest {
  urls: string[];
  webhookUrl?: string;
  hook?: RunHook;
  scrapeOptions: ScrapeOptions;
}

export const SITEMAP_MODES = ['include', 'skip', 'only'] as const;
export type SitemapMode = (typeof SITEMAP_MODES)[number];

/** A batch as stored: its URLs live on as frontier rows. */
export type StoredBatch = Omit<BatchRequest, 'urls'>;

const globList = z
  .array(
    z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(200)
      .superRefine((pattern, ctx) => {
        const problem = globProblem(pathGlob(pattern));
        if (problem) ctx.addIssue({ code: 'custom', message: `is not a usable glob: ${problem}` });
      }),
  )
  .max(50)
  .default([]);

/** The scrape options schema: the scrape request schema without `url`. */
export const scrapeOptionsOf = (scrapeRequest: z.ZodObject) => scrapeRequest.omit({ url: true });

/** The crawl's own fields; `scrapeOptions` is added by whoever parses (its schema is the plugins'). */
export function crawlFields(limits: CrawlLimits) {
  return {
    url: httpUrl.describe('Start URL; always scraped, whatever the path filters say.'),
    maxDepth: z
      .number()
      .int()
      .min(0)
      .max(limits.maxDepthLimit)
      .default(Math.min(limits.defaultMaxDepth, limits.maxDepthLimit))
      .describe('Link hops from the start page (0 = the start page only).'),
    maxPages: z
      .number()
      .int()
      .min(1)
      .max(limits.maxPagesLimit)
      .default(Math.min(limits.defaultMaxPages, limits.maxPagesLimit))
      .describe('Pages in the results, failed ones included; never exceeded.'),
    allowSubdomains: z.boolean().default(false).describe('Also follow links to other hosts of the same registrable domain.'),
    allowExternalLinks: z.boolean().default(false).describe('Follow links to any host.'),
    includePaths: globList.describe(
      'Globs on the URL path (picomatch syntax: *, **, ?, [...], {a,b}); when given, only matching links are followed.',
    ),
    excludePaths: globList.describe('Globs on the URL path; matching links are never followed. Wins over the include paths.'),
    webhookUrl: receiverUrlSchema
      .optional()
      .describe(
        'Receives crawl.completed or crawl.failed for this crawl: written out in full (http:// or https://), checked by the SSRF guard when the crawl starts.',
      ),
    sitemap: z
      .enum(SITEMAP_MODES)
      .default('skip')
      .describe(
        "The site's sitemaps (robots.txt Sitemap lines, /sitemap.xml) and feeds: `skip` (default) follows links only; `include` adds the sitemap's URLs in scope to the start page's links; `only` crawls the start page and the sitemap's URLs in scope, following no links.",
      ),
  };
}

/** The batch's own fields besides its scrape options. */
export function batchFields(limits: CrawlLimits) {
  return {
    urls: z
      .array(httpUrl)
      .min(1, 'must list at least one URL')
      .max(limits.batchMaxUrls)
      .describe(`URLs to scrape (at most ${limits.batchMaxUrls}); duplicates after normalisation are scraped once.`),
    webhookUrl: receiverUrlSchema
      .optional()
      .describe(
        'Receives batch.completed for this batch: written out in full (http:// or https://), checked by the SSRF guard when the batch starts.',
      ),
  };
}

/** The crawl fields only some wire formats set (their own names and rules are theirs). */
export const crawlExtraFields = {
  pathSyntax: z.enum(['glob', 'regex']).optional(),
  pathPrefix: z.string().max(2048).optional(),
  delayMs: z.number().int().min(0).max(60_000).optional(),
  hook: runHookSchema.optional(),
};

/** Path lists as stored; their patterns are checked in the syntax the request names. */
const patternList = z.array(z.string().max(1000)).max(50).default([]);

/** The internal crawl request schema (used to re-validate a stored request on retry). */
export function crawlRequestSchema(limits: CrawlLimits, scrapeRequest: z.ZodObject) {
  return z
    .strictObject({
      ...crawlFields(limits),
      includePaths: patternList,
      excludePaths: patternList,
      ...crawlExtraFields,
      scrapeOptions: scrapeOptionsOf(scrapeRequest).prefault({}),
    })
    .superRefine((request, ctx) => {
      for (const field of ['includePaths', 'excludePaths'] as const) {
        request[field].forEach((pattern, index) => {
          const problem = patternProblem(request.pathSyntax === 'regex' ? pattern : pathGlob(pattern), request.pathSyntax ?? 'glob');
          if (problem) ctx.addIssue({ code: 'custom', path: [field, index], message: `is not a usable pattern: ${problem}` });
        });
      }
    });
}
