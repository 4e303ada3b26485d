/**
 * POST /v1/diff: what changed on a page since a version the caller sends (`previous`, earlier
 * markdown or text) or, without one, since the workspace's last stored scrape of the URL. The page
 * is scraped afresh (main content, cache bypassed) and compared in the watches' comparable form,
 * so the same noise never counts; the fresh scrape is stored like any other and is the next call's
 * previous version.
 */
import type { ContentRunner } from '../../content-runner.ts';
import type { Scraper } from '../../scrape.ts';
import type { ScrapeResult } from '../../model/result.ts';
import type { ResultStore } from '../../services.ts';
import type { Comparison } from './compare.ts';
import { countWords, linksInText, versionOf, versionRequest, type PageVersion } from './page.ts';
import { compareOffThread } from './task.ts';

export interface DiffRequest {
  url: string;
  previous?: string;
}

export interface DiffOutcome {
  url: string;
  status: 'new' | 'same' | 'changed';
  previousScrapedAt: string | null;
  comparison: Comparison | null;
}

/** Words of text a caller sent, link targets left out (metadata counts the words people read). */
function callerVersion(text: string): Pick<PageVersion, 'markdown' | 'wordCount'> {
  let readable = text;
  for (const link of linksInText(text)) readable = readable.replace(link, ' ');
  return { markdown: text, wordCount: countWords(readable) };
}

export class DiffService {
  constructor(
    private readonly scraper: Scraper,
    private readonly results: ResultStore | null,
    /** Where the comparison runs (a content worker), and its deadline (`scrape.timeoutMs`). */
    private readonly content: ContentRunner,
    private readonly timeoutMs: number,
  ) {}

  async diff(workspace: string, request: DiffRequest, signal?: AbortSignal): Promise<DiffOutcome> {
    // Read before scraping: the scrape below stores a newer result of the same URL.
    const stored = request.previous === undefined && this.results ? await this.results.latest(workspace, 'scrape', request.url) : null;
    const outcome = await this.scraper.scrape(versionRequest(request.url), workspace, signal);
    const current = versionOf(outcome.result);
    const previous =
      request.previous !== undefined
        ? callerVersion(request.previous)
        : stored
          ? versionOf(stored.output as unknown as ScrapeResult)
          : null;
    if (!previous) return { url: request.url, status: 'new', previousScrapedAt: null, comparison: null };
    // Clocks are read against fetch times: the stored scrape's and this one's (text a caller sent has none).
    const previousFetch = stored && request.previous === undefined ? Date.parse(stored.createdAt) : undefined;
    const input = {
      previous: { ...previous, fetchedAt: previousFetch },
      current: { markdown: current.markdown, wordCount: current.wordCount, fetchedAt: Date.now() },
      view: false,
    };
    const comparison = await compareOffThread(this.content, input, this.timeoutMs, signal);
    return {
      url: request.url,
      status: comparison.changed ? 'changed' : 'same',
      previousScrapedAt: stored?.createdAt ?? null,
      comparison,
    };
  }
}
