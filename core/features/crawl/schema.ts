/**
 * Request bodies of POST /v1/crawl and POST /v1/batch. The scrape options are the `/v1/scrape`
 * schema without `url`, so crawls and batches accept exactly what a scrape accepts. Defaults and
 * upper bounds of `max_depth`, `max_pages` and the batch size come from `[crawl]` in the config,
 * which is why the schemas are built from it.
 */
import { z } from 'zod';
import type { CrawlSettings } from './config.ts';
import { scrapeRequestSchema } from '../../job.ts';
import { globProblem } from './globs.ts';
import { pathGlob } from './scope.ts';

export type CrawlLimits = CrawlSettings;

export const scrapeOptionsSchema = scrapeRequestSchema.omit({ url: true });
const httpUrl = scrapeRequestSchema.shape.url;

const globList = z
  .array(
    z.string().trim().min(1, 'must not be empty').max(200).superRefine((pattern, ctx) => {
      const problem = globProblem(pathGlob(pattern));
      if (problem) ctx.addIssue({ code: 'custom', message: `is not a usable glob: ${problem}` });
    }),
  )
  .max(50)
  .default([]);

export function crawlRequestSchema(limits: CrawlLimits) {
  return z.strictObject({
    url: httpUrl.describe('Start URL; always scraped, whatever the path filters say.'),
    max_depth: z.number().int().min(0).max(limits.maxDepthLimit).default(Math.min(limits.defaultMaxDepth, limits.maxDepthLimit))
      .describe('Link hops from the start page (0 = the start page only).'),
    max_pages: z.number().int().min(1).max(limits.maxPagesLimit).default(Math.min(limits.defaultMaxPages, limits.maxPagesLimit))
      .describe('Pages in the results, failed ones included; never exceeded.'),
    allow_subdomains: z.boolean().default(false).describe('Also follow links to other hosts of the same registrable domain.'),
    allow_external_links: z.boolean().default(false).describe('Follow links to any host.'),
    include_paths: globList.describe('Globs on the URL path (picomatch syntax: *, **, ?, [...], {a,b}); when given, only matching links are followed.'),
    exclude_paths: globList.describe('Globs on the URL path; matching links are never followed. Wins over include_paths.'),
    webhook_url: httpUrl.optional().describe('Receives crawl.completed or crawl.failed for this crawl.'),
    scrape_options: scrapeOptionsSchema.prefault({}).describe('The options of POST /v1/scrape (without url), applied to every page.'),
  });
}

export function batchRequestSchema(limits: CrawlLimits) {
  return scrapeOptionsSchema.extend({
    urls: z.array(httpUrl).min(1, 'must list at least one URL').max(limits.batchMaxUrls)
      .describe(`URLs to scrape (at most ${limits.batchMaxUrls}); duplicates after normalisation are scraped once.`),
    webhook_url: httpUrl.optional().describe('Receives batch.completed for this batch.'),
  });
}

export type CrawlRequest = z.output<ReturnType<typeof crawlRequestSchema>>;
export type BatchRequest = z.output<ReturnType<typeof batchRequestSchema>>;
export type ScrapeOptions = z.output<typeof scrapeOptionsSchema>;
