/**
 * POST /v1/search behind the route: checks the request's formats like a scrape would (before any
 * provider is asked), gets the ranked list from the providers (providers.ts) or from the
 * workspace's cache, and scrapes every result through the Scraper — the same pipeline, SSRF guard
 * and per-workspace response cache as /v1/scrape — a bounded number at a time. A result page that
 * cannot be scraped gets its own `error`; the others still return.
 *
 * The provider's list is cached per workspace (endpoint `search`, the query as its URL, limit,
 * country and language as its options) for `storage.cacheTtlSeconds`, like a scrape; each page's
 * scrape is cached by the Scraper, and a failed one is not, so a repeated search retries it.
 */
import type { Logger } from 'pino';
import { mapBounded } from '../../bounded.ts';
import { badRequest, configInvalid, TrawlError } from '../../errors.ts';
import { createJob } from '../../job.ts';
import type { ScrapeResult } from '../../model/result.ts';
import type { FieldNamer, SearchHit } from '../../plugin.ts';
import type { PluginRegistry } from '../../registry.ts';
import { internalNames, type Scraper } from '../../scrape.ts';
import type { ResultStore } from '../../services.ts';
import { sha256Hex } from '../../storage/values.ts';
import type { SearchSettings } from './config.ts';
import { askProviders, cleanHits, type Provider, type ProviderAnswer } from './providers.ts';
import type { SearchRequest } from './request.ts';

export interface SearchResultItem extends SearchHit {
  /** The scraped page, with `scrape: true` when it worked. */
  page?: ScrapeResult;
  /** Why the page could not be scraped. */
  error?: string;
}

export interface SearchOutcome {
  query: string;
  /** Plugin id of the provider whose list this is. */
  provider: string;
  results: SearchResultItem[];
  /** Provider failures, empty answers and what a provider could not honour. */
  warnings: string[];
  /** The list came from the workspace's cache. */
  cached: boolean;
  /** Milliseconds spent on the providers (`search`) and on the result pages (`scrape`). */
  timings: Record<string, number>;
}

export interface SearchServiceDeps {
  registry: PluginRegistry;
  scraper: Scraper;
  /** Null when results are not stored (sink.results disabled): nothing is cached then. */
  results: ResultStore | null;
  settings: Readonly<SearchSettings>;
  cacheTtlSeconds: number;
  logger: Logger;
}

const CACHE_ENDPOINT = 'search';
/** Bump when the stored list's shape changes, so older rows are not read as the new one. */
const CACHE_VERSION = 1;

export class SearchService {
  /** Provider names in the order they are asked (`search.providers` first, then the built-in order). */
  private readonly order: string[];

  constructor(private readonly deps: SearchServiceDeps) {
    const installed = deps.registry
      .all()
      .filter((p) => p.definition.kind === 'search')
      .map((p) => p.definition.name);
    deps.settings.providers.forEach((name, index) => {
      if (!installed.includes(name))
        throw configInvalid(
          `Invalid configuration at search.providers[${index}]: unknown search provider "${name}" (installed: ${installed.join(', ')})`,
        );
    });
    this.order = [...new Set([...deps.settings.providers, ...installed])];
  }

  private providers(): Provider[] {
    const active = this.deps.registry.active('search');
    return this.order.flatMap((name) => active.filter((p) => p.definition.name === name).map((p) => ({ id: p.id, handler: p.handler })));
  }

  /** `name` is how the caller's wire format names request fields, for messages. */
  async search(
    request: SearchRequest,
    workspace: string,
    signal: AbortSignal = new AbortController().signal,
    name: FieldNamer = internalNames,
  ): Promise<SearchOutcome> {
    if (request.scrape) this.validateFormats(request, workspace, name);
    const providers = this.providers();
    if (providers.length === 0) throw new TrawlError('unavailable', this.notConfigured());

    const started = performance.now();
    const cached = request.noCache ? null : await this.cachedList(request, workspace);
    const answer =
      cached ??
      (await askProviders(providers, {
        query: request.query,
        limit: request.numResults,
        country: request.country,
        language: request.lang,
        signal,
      }));
    if (!cached && answer.hits.length) await this.store(request, workspace, answer);
    const searched = performance.now();

    const results = request.scrape ? await this.scrapeAll(answer.hits, request, workspace, signal, name) : answer.hits;
    const timings = {
      search: Math.round(searched - started),
      ...(request.scrape ? { scrape: Math.round(performance.now() - searched) } : {}),
    };
    return { query: request.query, provider: answer.provider, results, warnings: answer.warnings, cached: cached !== null, timings };
  }

  /** The same format checks as a scrape, so a bad format costs no provider call. */
  private validateFormats({ formats, scrapeOptions }: SearchRequest, workspace: string, name: FieldNamer): void {
    const parsed = this.deps.scraper.request.parse({ ...scrapeOptions, url: 'https://search.invalid/', formats });
    if (!parsed.success) throw badRequest(`Invalid field ${name('formats')}: ${parsed.error.issues[0]?.message}`);
    this.deps.scraper.validate(createJob(parsed.data, workspace, new AbortController().signal), name);
  }

  /** Which option turns each installed provider on, so the 503 says what to set. */
  private notConfigured(): string {
    const ways = this.deps.registry
      .all()
      .filter((p) => p.definition.kind === 'search')
      .map(({ definition: d }) => (d.enabledBy?.length ? `plugins.search.${d.name}.${d.enabledBy[0]}` : `plugins.search.${d.name} = true`));
    return `No search provider is configured: set plugins.search.<name>${ways.length ? ` (${ways.join(', ')})` : ''}`;
  }

  private async scrapeAll(
    hits: SearchHit[],
    request: SearchRequest,
    workspace: string,
    signal: AbortSignal,
    name: FieldNamer,
  ): Promise<SearchResultItem[]> {
    const { scraper, settings, logger } = this.deps;
    return mapBounded(hits, settings.concurrency, async (hit): Promise<SearchResultItem> => {
      try {
        const parsed = scraper.request.parse({
          timeoutMs: settings.resultTimeoutMs,
          ...request.scrapeOptions,
          url: hit.url,
          formats: request.formats,
          noCache: request.noCache,
        });
        if (!parsed.success) return { ...hit, error: `Invalid result URL: ${parsed.error.issues[0]?.message}` };
        const { result } = await scraper.scrape(parsed.data, workspace, signal, name);
        return { ...hit, page: result };
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        if (err instanceof TrawlError && err.status < 500) return { ...hit, error: err.message };
        if (err instanceof TrawlError && err.code === 'overloaded') return { ...hit, error: err.message };
        logger.error({ err, url: hit.url }, 'search result scrape failed unexpectedly');
        return { ...hit, error: 'Internal error while scraping this page' };
      }
    });
  }

  private cacheKey(request: SearchRequest) {
    const options = JSON.stringify([CACHE_VERSION, request.numResults, request.country ?? null, request.lang ?? null]);
    return { url: `search:${request.query}`, optionsHash: sha256Hex(options) };
  }

  private async cachedList(request: SearchRequest, workspace: string): Promise<ProviderAnswer | null> {
    const { results, cacheTtlSeconds } = this.deps;
    if (!results || cacheTtlSeconds <= 0) return null;
    const key = this.cacheKey(request);
    const row = await results.findFresh(workspace, CACHE_ENDPOINT, key.url, key.optionsHash, cacheTtlSeconds);
    const stored = row?.output as { provider?: unknown; hits?: unknown } | undefined;
    if (!stored || typeof stored.provider !== 'string' || !Array.isArray(stored.hits)) return null;
    return { provider: stored.provider, hits: cleanHits(stored.hits as SearchHit[], request.numResults).hits, warnings: [] };
  }

  private async store(request: SearchRequest, workspace: string, answer: ProviderAnswer): Promise<void> {
    const { results, cacheTtlSeconds } = this.deps;
    if (!results || cacheTtlSeconds <= 0) return;
    const key = this.cacheKey(request);
    await results.save({
      workspace,
      endpoint: CACHE_ENDPOINT,
      url: key.url,
      optionsHash: key.optionsHash,
      output: { query: request.query, provider: answer.provider, hits: answer.hits },
    });
  }
}
