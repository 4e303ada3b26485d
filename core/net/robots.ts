/**
 * robots.txt, the one reader and cache of it: crawls obey its rules and `Crawl-delay`, map reads
 * its `Sitemap:` lines. Parsed by robots-parser, cached per origin in this process (concurrent
 * callers share one fetch). Rules are matched for Trawl's user-agent token (the product name of
 * `fetch.userAgent`, e.g. `TrawlBot`), and `Crawl-delay` becomes the host's minimum gap between
 * fetches, capped. Unavailability follows RFC 9309: a 4xx (no robots.txt) allows everything; a
 * 5xx or an unreachable server disallows everything, since the site may be unable to say what it
 * forbids; such an answer is asked for again after a minute, not the TTL. A file over 512 KiB is
 * read up to there (the RFC asks parsers to take at least the first 500 KiB).
 */
import robotsParser from 'robots-parser';
import type { HttpClient } from '../services.ts';
import { isGuardRefusal } from './http-support.ts';
import { httpUrl } from './url.ts';

export interface RobotsRules {
  isAllowed(url: string): boolean;
  /** The site's Crawl-delay for us in ms (capped), 0 when none. */
  crawlDelayMs: number;
  /** Why everything is disallowed, when robots.txt could not be read. */
  unavailable?: string;
  /** Set when the SSRF guard refused the origin: its pages would be refused too, for this reason. */
  refusal?: string;
  /** Set when robots.txt got no answer at all (connection refused, unknown host, time-out): the site is down, not disallowing. */
  unreachable?: string;
  /** Absolute URLs of its `Sitemap:` lines. */
  sitemaps: readonly string[];
}

export const ROBOTS_MAX_BYTES = 512 * 1024;
const ROBOTS_TIMEOUT_MS = 10_000;
/** Origins remembered at once; the oldest is forgotten first. */
const CACHE_SIZE = 1000;

/** A robots.txt that could not be read is asked for again soon, not after the full TTL. */
const UNAVAILABLE_TTL_MS = 60_000;

const allowAll: RobotsRules = { isAllowed: () => true, crawlDelayMs: 0, sitemaps: [] };
const disallowAll = (unavailable: string): RobotsRules => ({ isAllowed: () => false, crawlDelayMs: 0, unavailable, sitemaps: [] });

export interface RobotsOptions {
  userAgent: string;
  ttlMs: number;
  maxCrawlDelayMs: number;
}

export class RobotsCache {
  private readonly entries = new Map<string, { rules: Promise<RobotsRules>; expires: number }>();

  constructor(
    private readonly http: HttpClient,
    private readonly options: RobotsOptions,
  ) {}

  /**
   * Rules of the URL's origin; concurrent callers share one fetch. `proxy`: the route of the work
   * asking (a crawl through a pool reads robots.txt through it: a site may answer the direct route
   * with a block), remembered apart from other routes' answers.
   */
  rulesFor(url: string, proxy?: string): Promise<RobotsRules> {
    const origin = new URL(url).origin;
    const key = proxy === undefined ? origin : `${proxy} ${origin}`;
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && cached.expires > now) return cached.rules;
    const rules = this.fetchRules(origin, proxy);
    const entry = { rules, expires: now + this.options.ttlMs };
    void rules.then((r) => {
      if (r.unavailable) entry.expires = Math.min(entry.expires, Date.now() + UNAVAILABLE_TTL_MS);
    });
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > CACHE_SIZE) this.entries.delete(this.entries.keys().next().value!);
    return rules;
  }

  private async fetchRules(origin: string, proxy: string | undefined): Promise<RobotsRules> {
    const robotsUrl = `${origin}/robots.txt`;
    let status: number;
    let text: string;
    let truncated = false;
    try {
      const response = await this.http.request(robotsUrl, {
        timeoutMs: ROBOTS_TIMEOUT_MS,
        maxBodyBytes: ROBOTS_MAX_BYTES,
        truncateBody: true,
        maxRedirects: 5,
        headers: { accept: 'text/plain,*/*;q=0.5' },
        ...(proxy ? { proxy } : {}),
      });
      status = response.status;
      text = response.text ?? new TextDecoder().decode(response.body);
      truncated = response.truncated === true;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      const reason = message.replace(/^Failed to fetch URL: /, '');
      const refused = disallowAll(`robots.txt could not be fetched (${message})`);
      return isGuardRefusal(err) ? { ...refused, refusal: reason } : { ...refused, unreachable: reason };
    }
    if (status >= 500) return disallowAll(`robots.txt answered HTTP ${status}`);
    if (status >= 400) return allowAll;
    // A cut-off last line may be half a rule; the lines before it are whole.
    const parsed = robotsParser(robotsUrl, truncated ? text.slice(0, text.lastIndexOf('\n') + 1) : text);
    const agent = this.options.userAgent;
    const delaySeconds = Number(parsed.getCrawlDelay(agent) ?? 0);
    const crawlDelayMs =
      Number.isFinite(delaySeconds) && delaySeconds > 0 ? Math.min(delaySeconds * 1000, this.options.maxCrawlDelayMs) : 0;
    return {
      // robots-parser answers undefined for another origin; callers only ask about this one.
      isAllowed: (url) => parsed.isAllowed(url, agent) !== false,
      crawlDelayMs,
      sitemaps: parsed.getSitemaps().flatMap((sitemap) => httpUrl(sitemap, robotsUrl) ?? []),
    };
  }
}
