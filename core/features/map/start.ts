/**
 * The start page of a map, read through one pipeline run (the Scraper, as /v1/scrape and crawl
 * pages are), so whatever the pipeline reads contributes: an HTML page, an app shell it renders, a
 * PDF or DOCX through its document plugin. Taken from the run: the final URL (a redirect widens
 * the scope), the title (page metadata), the links (the links format: the whole page, absolute,
 * after cleaning, tracking parameters dropped) and the RSS/Atom feeds the page announces (the
 * attributes format on `<link rel="alternate">`, read from the page as served).
 *
 * The run bypasses the response cache (`no_cache`): every other source of a map is fetched fresh,
 * and a cached start page would hide its new links for the cache's TTL while its sitemap already
 * lists them. The result is still stored like any scrape's.
 */
import { TrawlError } from '../../errors.ts';
import { createJob } from '../../job.ts';
import type { ScrapeRequest } from '../../model/request.ts';
import type { ScrapeResult } from '../../model/result.ts';
import type { Scraper } from '../../scrape.ts';
import type { FoundLink } from '../../net/feeds.ts';

export interface StartPage {
  finalUrl: string;
  /** Answered below 400: the page itself is listed. */
  ok: boolean;
  title?: string;
  links: FoundLink[];
  feeds: string[];
  /** What was not read because its format is disabled here. */
  warnings: string[];
}

const FEED_SELECTORS = ['application/rss+xml', 'application/atom+xml', 'application/rdf+xml'].map((type) => ({
  selector: `link[rel~="alternate"][type="${type}" i][href]`,
  attribute: 'href',
}));
/** The formats the start page is read with, and what each one reads. */
const START_FORMATS: Record<string, string> = { links: 'links', attributes: 'feeds' };
const MAX_TITLE_CHARS = 300;

const clean = (text: unknown) => {
  const collapsed = typeof text === 'string' ? text.replace(/\s+/g, ' ').trim() : '';
  return collapsed ? collapsed.slice(0, MAX_TITLE_CHARS) : undefined;
};

/** The scrape request of the start page, parsed by the installed plugins' request schema. */
function startRequest(scraper: Scraper, url: string, formats: string[]): ScrapeRequest {
  // The feed selectors belong to the attributes format: set without it, they would need its plugin.
  const feeds = formats.includes('attributes') ? { attributeSelectors: FEED_SELECTORS } : {};
  const parsed = scraper.request.parse({ url, formats, noCache: true, ...feeds });
  if (!parsed.success) throw new TrawlError('internal', `map start page request is invalid: ${parsed.error.message}`);
  return parsed.data;
}

/** The start page out of a scrape result. */
function fromResult(result: ScrapeResult, url: string): Omit<StartPage, 'warnings'> {
  const { metadata, formats } = result;
  const links = (Array.isArray(formats.links) ? formats.links : []) as Array<{ text?: unknown; href?: unknown }>;
  const attributes = (Array.isArray(formats.attributes) ? formats.attributes : []) as Array<{ values?: unknown }>;
  const title = clean(metadata.title);
  return {
    finalUrl: metadata.finalUrl ?? url,
    ok: metadata.statusCode === undefined || metadata.statusCode < 400,
    ...(title ? { title } : {}),
    links: links.flatMap((link) => {
      if (typeof link.href !== 'string') return [];
      const text = clean(link.text);
      return [text ? { url: link.href, title: text } : { url: link.href }];
    }),
    feeds: attributes.flatMap((a) => (Array.isArray(a.values) ? a.values.filter((v): v is string => typeof v === 'string') : [])),
  };
}

/** The formats this server can render, so a disabled attributes (or links) plugin costs only what it provides. */
function usableFormats(scraper: Scraper, url: string, workspace: string): string[] {
  return Object.keys(START_FORMATS).filter((format) => {
    try {
      scraper.validate(createJob(startRequest(scraper, url, [format]), workspace, new AbortController().signal));
      return true;
    } catch (err) {
      if (err instanceof TrawlError) return false;
      throw err;
    }
  });
}

/**
 * Reads the start page, or null when neither of its formats is enabled. Throws what the
 * scrape throws: `unsupported_content` for a body no document plugin reads (a sitemap or feed
 * given as the start URL, which map then reads as one).
 */
export async function readStartPage(
  scraper: Scraper,
  url: string,
  workspace: string,
  signal: AbortSignal,
  proxy?: string,
): Promise<StartPage | null> {
  const formats = usableFormats(scraper, url, workspace);
  if (formats.length === 0) return null;
  const { result } = await scraper.scrape({ ...startRequest(scraper, url, formats), ...(proxy ? { proxy } : {}) }, workspace, signal);
  const warnings = Object.entries(START_FORMATS).flatMap(([format, reads]) =>
    formats.includes(format) ? [] : [`start page ${reads} not read: the ${format} format is disabled`],
  );
  return { ...fromResult(result, url), warnings };
}
