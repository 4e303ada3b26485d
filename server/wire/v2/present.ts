/**
 * The /v2 presenter: internal results in Firecrawl's v2 shapes. A scrape result becomes a Document
 * (`markdown`, `html`, `rawHtml`, `links` as URLs, `screenshot` as a data URL, `json`, `summary`,
 * `images`, `attributes`, `answer`, `actions`, `metadata` with `sourceURL` as sent, `url` where it
 * led and `statusCode`, plus Trawl's `pageType` and `contentConfidence`); a crawl or batch its
 * status page; a search its results by source; a map its links. Which fields a Document has follows
 * the internal request it was scraped with (scrape-options.ts wrote it), so stored crawl pages
 * present the same way.
 */
import { STATUS_CODES } from 'node:http';
import type { ScrapeOptions } from '../../../core/features/crawl/schema.ts';
import type { PageRow, RunRow } from '../../../core/features/crawl/rows.ts';
import { isScrapeResult } from '../../../core/features/crawl/legacy.ts';
import type { StoredMap } from '../../../core/features/map/store.ts';
import type { SearchOutcome } from '../../../core/features/search/service.ts';
import type { Extraction, ScrapeResult } from '../../../core/model/result.ts';
import { SCRAPE_ACTION_SCRIPT } from './scrape-options.ts';

type Fields = Record<string, unknown>;
/** What a Document's shape depends on besides its result. */
export type PresentedOptions = Pick<ScrapeOptions, 'formats' | 'actions'>;

const pngDataUrl = (base64: unknown) => `data:image/png;base64,${String(base64)}`;

/** Only keys with a value: Firecrawl leaves out what a page does not have. */
function compact(fields: Fields): Fields {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null && value !== ''));
}

export function presentMetadata(result: ScrapeResult, sourceUrl: string, cacheState?: 'hit' | 'miss'): Fields {
  const m = result.metadata;
  const statusCode = m.statusCode ?? 200;
  return {
    ...compact({
      title: m.title,
      description: m.description,
      language: m.language,
      keywords: m.keywords,
      author: m.author,
      ogTitle: m.title,
      ogDescription: m.description,
      ogImage: m.image,
      ogSiteName: m.siteName,
      favicon: m.favicon,
      publishedTime: m.publishedDate,
      contentType: m.contentType,
      numPages: m.pageCount,
      // (Trawl's own: Firecrawl has no such fields, and its SDKs keep unknown metadata keys)
      pageType: m.pageType,
      contentConfidence: m.contentConfidence,
    }),
    sourceURL: sourceUrl,
    url: m.finalUrl ?? result.url,
    statusCode,
    ...(statusCode >= 400 ? { error: STATUS_CODES[statusCode] ?? `HTTP ${statusCode}` } : {}),
    ...(cacheState ? { cacheState } : {}),
    proxyUsed: 'basic',
  };
}

/** `actions`: screenshots, the `scrape` actions' pages and the other scripts' return values, each in order. */
function presentActions(result: ScrapeResult, actions: ScrapeOptions['actions']): Fields | undefined {
  if (!actions?.length) return undefined;
  const scripts = actions.filter((action) => action.type === 'executeJavascript');
  const returns = result.actions?.jsResults ?? [];
  const scrapes: unknown[] = [];
  const javascriptReturns: unknown[] = [];
  scripts.forEach((action, index) => {
    const value = returns[index];
    if (action.code === SCRAPE_ACTION_SCRIPT) scrapes.push(value ?? { url: result.url, html: '' });
    else javascriptReturns.push({ type: value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value, value });
  });
  return { screenshots: (result.actions?.screenshots ?? []).map((shot) => pngDataUrl(shot.data)), scrapes, javascriptReturns, pdfs: [] };
}

const FORMAT_FIELDS: Readonly<Record<string, (output: unknown) => [string, unknown] | null>> = {
  markdown: (output) => ['markdown', output],
  html: (output) => ['html', output],
  rawHtml: (output) => ['rawHtml', output],
  summary: (output) => ['summary', output],
  links: (output) => ['links', (output as Array<{ href: string }>).map((link) => link.href)],
  screenshot: (output) => ['screenshot', pngDataUrl(output)],
  extract: (output) => (output === null ? null : ['json', output]),
  json: (output) => [
    'images',
    [...new Set((output as Extraction).assets.filter((asset) => asset.type === 'image').map((asset) => asset.url))],
  ],
  attributes: (output) => ['attributes', output],
  query: (output) => ['answer', (output as { answer?: string }).answer ?? ''],
};

/** A Document. `sourceUrl` is the URL as the caller sent it, when it is known. */
export function presentDocument(
  result: ScrapeResult,
  options: PresentedOptions,
  sourceUrl = result.url,
  cacheState?: 'hit' | 'miss',
): Fields {
  const doc: Fields = {};
  for (const format of options.formats) {
    const output = result.formats[format];
    const field = output === undefined ? null : FORMAT_FIELDS[format]?.(output);
    if (field) doc[field[0]] = field[1];
  }
  const actions = presentActions(result, options.actions);
  if (actions) doc.actions = actions;
  doc.metadata = presentMetadata(result, sourceUrl, cacheState);
  if (result.warnings.length) doc.warning = result.warnings.map((w) => w.message).join('; ');
  return doc;
}

/** A stored page of a crawl or batch; one stored by older code (a /v1 response) keeps its markdown and URL. */
export function presentPage(page: PageRow, options: PresentedOptions): Fields {
  const result = page.result ?? {};
  if (isScrapeResult(result)) return presentDocument(result, options, page.url);
  return {
    ...(typeof result.markdown === 'string' ? { markdown: result.markdown } : {}),
    metadata: { sourceURL: page.url, url: page.url, statusCode: 200 },
  };
}

/** Firecrawl has no `queued`: a run waiting for its first page is already `scraping`. */
export const v2Status = (run: RunRow) => (run.status === 'queued' ? 'scraping' : run.status);

/** A crawl or batch status page: counts, this page's documents and, when there is more to read, `next`. */
export function presentRunStatus(run: RunRow, data: Fields[], next: string | null): Fields {
  return {
    success: true,
    status: v2Status(run),
    completed: run.completed,
    // Firecrawl counts done and in-flight pages; failed pages are in /errors only.
    total: run.admitted - run.failed,
    creditsUsed: run.completed + run.failed,
    // The job's TTL: left out when runs are kept forever (crawl.retentionHours = 0).
    ...(run.expiresAt ? { expiresAt: run.expiresAt } : {}),
    ...(next ? { next } : {}),
    data,
    ...(run.error ? { error: run.error } : {}),
  };
}

/** Why Firecrawl calls a page robots-blocked rather than failed. */
const isRobotsBlock = (error: string | null) => /^Disallowed/.test(error ?? '');

/** GET …/errors: failed pages with their reasons, robots.txt refusals apart. */
export function presentErrors(run: RunRow, failed: PageRow[]): Fields {
  return {
    errors: failed
      .filter((page) => !isRobotsBlock(page.error))
      .map((page) => ({ id: `${run.id}-${page.seq}`, url: page.url, error: page.error ?? 'failed' })),
    robotsBlocked: failed.filter((page) => isRobotsBlock(page.error)).map((page) => page.url),
  };
}

/** POST /v2/search: web results, each a Document too when its page was scraped. */
export function presentSearch(outcome: SearchOutcome, options: PresentedOptions, warnings: string[]): Fields {
  const web = outcome.results.map(({ page, error, url, title, description, position }) => {
    const hit = { url, title, description, position };
    if (page) return { ...hit, ...presentDocument(page, options, url) };
    if (error !== undefined) return { ...hit, metadata: { sourceURL: url, url, statusCode: 0, error } };
    return hit;
  });
  const all = [...warnings, ...outcome.warnings];
  return {
    success: true,
    data: { web },
    creditsUsed: 1 + outcome.results.filter((result) => result.page).length,
    ...(all.length ? { warning: all.join('; ') } : {}),
  };
}

/** POST /v2/map: `id` is the stored result's (absent when results are not stored). */
export function presentMap(result: StoredMap, warnings: string[]): Fields {
  const all = [...warnings, ...(result.warnings ?? [])];
  return {
    success: true,
    ...(result.id ? { id: result.id } : {}),
    links: result.links.map(({ url, title }) => ({ url, ...(title ? { title } : {}) })),
    ...(all.length ? { warning: all.join('; ') } : {}),
  };
}
