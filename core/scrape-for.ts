/**
 * The page an engine or a feature reads for its own request (extract, summarize, lead, brand,
 * endpoints): one scrape through the Scraper (cache, SSRF guard, document types, deadline) of a
 * request it builds, checked by the same composed schema as every scrape so a bad option is a 400
 * naming the caller's field.
 */
import { badRequest } from './errors.ts';
import type { FieldNamer } from './plugin.ts';
import type { ScrapeOutcome, Scraper } from './scrape.ts';

export async function scrapeFor(
  scraper: Scraper,
  input: Record<string, unknown>,
  workspace: string,
  signal: AbortSignal | undefined,
  name: FieldNamer,
): Promise<ScrapeOutcome> {
  const parsed = scraper.request.parse(Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(`Invalid field ${name(String(issue?.path[0] ?? 'url'))}: ${issue?.message}`);
  }
  return scraper.scrape(parsed.data, workspace, signal, name);
}
