/** The `[crawl]` section: crawl and batch concurrency, politeness, retries, request limits and retention. */
import { z } from 'zod';

export const crawlConfigSchema = z.strictObject({
  /** Crawl and batch pages scraped at once per worker process. */
  concurrency: z.number().int().min(1).max(256).default(8),
  /** Pages of one host fetched at once per worker process. */
  perHostConcurrency: z.number().int().min(1).max(256).default(4),
  /** Minimum gap between two fetches from one host; a larger robots.txt Crawl-delay wins. */
  perHostDelayMs: z.number().int().min(0).max(600_000).default(0),
  /** A robots.txt Crawl-delay above this is capped to it. */
  maxCrawlDelaySeconds: z.number().min(0).max(3600).default(30),
  /** Tries per page before it is recorded as failed (transient errors, HTTP 429 and 5xx). */
  maxAttempts: z.number().int().min(1).max(20).default(3),
  defaultMaxDepth: z.number().int().min(0).default(10),
  maxDepthLimit: z.number().int().min(0).max(10_000).default(100),
  defaultMaxPages: z.number().int().min(1).default(100),
  maxPagesLimit: z.number().int().min(1).max(10_000_000).default(10_000),
  /** URLs accepted by one POST /v1/batch. */
  batchMaxUrls: z.number().int().min(1).max(100_000).default(1000),
  /** How long a fetched robots.txt is trusted (per worker process). */
  robotsCacheSeconds: z.number().int().min(0).default(3600),
  /**
   * Hours a finished run (completed, failed, cancelled) and its pages are kept; then its status is a
   * 404 and retention.ts deletes it. 24 is the job TTL Firecrawl's clients expect (`expiresAt`);
   * 0 keeps runs forever.
   */
  retentionHours: z.number().int().min(0).max(87_600).default(24),
});

export type CrawlSettings = z.output<typeof crawlConfigSchema>;
