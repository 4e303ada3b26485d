/**
 * A page version as watches and POST /v1/diff compare it: the scrape request that reads it (main
 * content as markdown, never from the cache, the caller's ignored selectors removed first), what is
 * kept of the result, and its comparable form (normalise.ts). Links are read from the markdown of
 * both versions alike, so a stored scrape, a snapshot and text a caller sends compare the same way.
 */
import type { ScrapeRequest } from '../../model/request.ts';
import type { ScrapeResult } from '../../model/result.ts';
import type { Comparable } from './compare.ts';
import { normaliseContent, normaliseLinks, type NoiseRules } from './normalise.ts';

/** Content beyond this is cut before it is stored or compared: bounded memory and diff work per check. */
export const MAX_CONTENT_CHARS = 500_000;

export interface PageVersion {
  markdown: string;
  title: string;
  wordCount: number;
}

export function versionRequest(url: string, ignoreSelectors: readonly string[] = []): ScrapeRequest {
  return {
    url,
    formats: ['markdown'],
    onlyMainContent: true,
    noCache: true,
    ...(ignoreSelectors.length ? { excludeSelectors: [...ignoreSelectors] } : {}),
  };
}

export function versionOf(result: ScrapeResult): PageVersion {
  const markdown = typeof result.formats.markdown === 'string' ? result.formats.markdown : typeof result.formats.text === 'string' ? result.formats.text : '';
  return { markdown: markdown.slice(0, MAX_CONTENT_CHARS), title: result.metadata.title ?? '', wordCount: result.metadata.wordCount ?? 0 };
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

export function comparableOf(version: Pick<PageVersion, 'markdown' | 'wordCount'>, rules: NoiseRules = {}): Comparable {
  return { text: normaliseContent(version.markdown, rules), links: normaliseLinks(linksInText(version.markdown)), wordCount: version.wordCount };
}
