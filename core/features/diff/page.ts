/**
 * A page version as watches and POST /v1/diff compare it: the scrape request that reads it (main
 * content as markdown — or only the parts a watch includes — never from the cache, ignored
 * selectors removed first, the raw HTML too when a watch reads numbers or stock from it), what is
 * kept of the result, and its comparable form (normalise.ts). Links are read from the markdown of
 * both versions alike, so a stored scrape, a snapshot and text a caller sends compare the same way.
 */
import type { ScrapeRequest } from '../../model/request.ts';
import type { ScrapeResult } from '../../model/result.ts';
import type { Comparable } from './compare.ts';
import { normaliseLines, normaliseLinks, type NoiseRules } from './normalise.ts';

/** Content beyond this is cut before it is stored or compared: bounded memory and diff work per check. */
export const MAX_CONTENT_CHARS = 500_000;

/** The raw HTML kept for reading numbers and stock: far above a product page, bounded for the parser. */
export const MAX_HTML_CHARS = 3_000_000;

export interface PageVersion {
  markdown: string;
  title: string;
  wordCount: number;
  /** The page as served, when the request asked for it. */
  html?: string;
}

export interface VersionOptions {
  ignoreSelectors?: readonly string[];
  /** Only these parts of the page (instead of its main content). */
  includeSelectors?: readonly string[];
  /** Also the raw HTML (number conditions, stock). */
  html?: boolean;
}

export function versionRequest(url: string, options: VersionOptions = {}): ScrapeRequest {
  const { ignoreSelectors = [], includeSelectors = [] } = options;
  return {
    url,
    formats: options.html ? ['markdown', 'rawHtml'] : ['markdown'],
    onlyMainContent: includeSelectors.length === 0,
    noCache: true,
    ...(ignoreSelectors.length ? { excludeSelectors: [...ignoreSelectors] } : {}),
    ...(includeSelectors.length ? { includeSelectors: [...includeSelectors] } : {}),
  };
}

export function versionOf(result: ScrapeResult): PageVersion {
  const markdown =
    typeof result.formats.markdown === 'string'
      ? result.formats.markdown
      : typeof result.formats.text === 'string'
        ? result.formats.text
        : '';
  const html = typeof result.formats.rawHtml === 'string' ? { html: result.formats.rawHtml.slice(0, MAX_HTML_CHARS) } : {};
  return {
    markdown: markdown.slice(0, MAX_CONTENT_CHARS),
    title: result.metadata.title ?? '',
    wordCount: result.metadata.wordCount ?? 0,
    ...html,
  };
}

const MARKDOWN_TARGET = /\]\(\s*<?(https?:\/\/[^\s)>]+)/g;
const BARE_URL = /(?<![(<])\bhttps?:\/\/[^\s)<>"'\]]+/g;

/** The link targets of markdown (or plain text): `[text](url)` targets and bare URLs. */
export function linksInText(text: string): string[] {
  return [...text.matchAll(MARKDOWN_TARGET)].map((m) => m[1]!).concat([...text.matchAll(BARE_URL)].map((m) => m[0]));
}

/** Words as the metadata counts them, for text a caller sent. */
export function countWords(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** `fetchedAt`: when the version was fetched (ms), so a clock showing that time is not a change. */
export function comparableOf(version: Pick<PageVersion, 'markdown' | 'wordCount'>, rules: NoiseRules = {}, fetchedAt?: number): Comparable {
  return {
    lines: normaliseLines(version.markdown, rules),
    links: normaliseLinks(linksInText(version.markdown)),
    wordCount: version.wordCount,
    ...(fetchedAt !== undefined ? { fetchedAt } : {}),
  };
}
