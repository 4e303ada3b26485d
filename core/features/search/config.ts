/**
 * The `[search]` section (POST /v1/search): the order providers are asked in, how many result
 * pages are scraped at once per request and how long each one may take. The providers themselves
 * are plugins (`[plugins.search.*]`), each enabled by its own settings.
 */
import { z } from 'zod';

export const searchConfigSchema = z.strictObject({
  /**
   * The order the enabled providers are asked in, by plugin name (`["brave", "searxng"]`); those
   * left out follow in the built-in order (searxng, brave, serper, tavily, duckduckgo).
   */
  providers: z.array(z.string().min(1)).max(20).default([]),
  /** Result pages scraped at once per request (each is one pipeline run, as /v1/scrape). */
  concurrency: z.number().int().min(1).max(50).default(10),
  /** One result page's whole scrape; a slower page gets its own `error`, the others still return. */
  resultTimeoutMs: z.number().int().min(1000).max(300_000).default(30_000),
});

export type SearchSettings = z.output<typeof searchConfigSchema>;
