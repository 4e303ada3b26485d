/**
 * POST /v1/endpoints behind the route: the page is read through one scrape (the Scraper: SSRF
 * guard, redirects, document types) for its HTML as served — not rendered: static analysis reads
 * what the server sends, and an app shell's browser render would cost seconds for nothing; its
 * scripts are read out of it and the inline ones scanned in a content worker; the first
 * `max_bundles` linked bundles are fetched through the HttpClient (size-capped) and so are the
 * source maps the first of them name; then every bundle and map is scanned in a content worker by
 * the `scanner` plugins. What was skipped (a bundle that failed, one cut at the size cap, a map too
 * large) is named in `warnings`; `truncated` says bundles were left out.
 */
import { mapBounded } from '../../bounded.ts';
import type { ContentRunner } from '../../content-runner.ts';
import { TrawlError } from '../../errors.ts';
import type { ScanSource } from '../../plugin.ts';
import { internalNames, type Scraper } from '../../scrape.ts';
import type { HttpClient } from '../../services.ts';
import { scrapeFor } from '../../scrape-for.ts';
import { EndpointCollector, type Endpoint } from './classify.ts';
import type { EndpointsSettings } from './config.ts';
import type { EndpointsRequest } from './request.ts';
import { READ_PAGE_TASK, readPage, SCAN_SOURCES_TASK, scanSources, type ScannedSource } from './scan-task.ts';
import { bundleName, fetchScript, sourceMapUrl } from './scripts.ts';

export interface EndpointsResult {
  url: string;
  bundles_scanned: number;
  endpoint_count: number;
  endpoints: Endpoint[];
  hosts: string[];
  truncated: boolean;
  warnings?: string[];
}

export interface EndpointFinderDeps {
  scraper: Scraper;
  http: HttpClient;
  content: ContentRunner;
  settings: Readonly<EndpointsSettings>;
}

const NO_CHECKS = { checkMemory() {} };
const MAX_WARNINGS = 50;

export class EndpointFinder {
  constructor(private readonly deps: EndpointFinderDeps) {}

  async find(request: EndpointsRequest, workspace: string, signal?: AbortSignal): Promise<EndpointsResult> {
    const { settings } = this.deps;
    const deadline = Date.now() + settings.timeoutMs;
    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new TrawlError('timeout', `Endpoint discovery took longer than ${settings.timeoutMs} ms (endpoints.timeoutMs)`)),
      settings.timeoutMs,
    );
    const combined = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
    try {
      return await this.run(request, workspace, { signal: combined, deadline });
    } finally {
      clearTimeout(timer);
    }
  }

  private async run(
    request: EndpointsRequest,
    workspace: string,
    limits: { signal: AbortSignal; deadline: number },
  ): Promise<EndpointsResult> {
    const { scraper, http, content, settings } = this.deps;
    const { result } = await scrapeFor(
      scraper,
      { url: request.url, formats: ['rawHtml'], noCache: true, render: false, timeoutMs: Math.max(1000, limits.deadline - Date.now()) },
      workspace,
      limits.signal,
      internalNames,
    );
    const pageUrl = result.metadata.finalUrl ?? request.url;
    const html = typeof result.formats.rawHtml === 'string' ? result.formats.rawHtml : '';
    const pageInput = { html, pageUrl, scanTimeoutMs: settings.scanTimeoutMs };
    const page = await content.task(READ_PAGE_TASK, pageInput, (registry) => readPage(pageInput, NO_CHECKS, registry), limits);

    const warnings: string[] = [];
    const chosen = page.bundles.slice(0, request.max_bundles);
    const fetched = await mapBounded(chosen, settings.concurrency, (url) =>
      fetchScript(http, url, settings.maxBundleBytes, true, limits.signal),
    );
    const bundles: ScanSource[] = [];
    fetched.forEach((outcome, i) => {
      const name = bundleName(chosen[i]!);
      if ('error' in outcome) {
        warnings.push(`${name}: not scanned (${outcome.error})`);
        return;
      }
      if (outcome.truncated) warnings.push(`${name}: read up to ${settings.maxBundleBytes} bytes (endpoints.maxBundleBytes)`);
      bundles.push({ type: 'javascript', text: outcome.text, name, url: chosen[i]!, pageUrl });
    });
    const maps = await this.sourceMaps(bundles, limits.signal, warnings);

    const sources = [...bundles, ...maps.map((m) => m.source)];
    const scanned = await mapBounded(sources, settings.concurrency, (source) => {
      const input = { sources: [source], scanTimeoutMs: settings.scanTimeoutMs };
      return content.task(SCAN_SOURCES_TASK, input, (registry) => scanSources(input, NO_CHECKS, registry), limits);
    });
    const collector = new EndpointCollector(pageUrl, request.include_third_party, settings.maxEndpoints);
    const add = (source: ScannedSource) => {
      for (const hit of source.hits) collector.add(hit, source.name);
      warnings.push(...source.warnings);
    };
    page.inline.forEach(add);
    // Each bundle's own hits, then its map's (the map only adds what the minified code hid).
    bundles.forEach((_, i) => {
      scanned[i]!.forEach(add);
      for (const [j, map] of maps.entries()) if (map.owner === i) scanned[bundles.length + j]!.forEach(add);
    });
    const { endpoints, hosts, capped } = collector.result();
    if (capped)
      warnings.push(
        `more than ${settings.maxEndpoints} endpoints found; the first ${settings.maxEndpoints} are listed (endpoints.maxEndpoints)`,
      );
    return {
      url: pageUrl,
      bundles_scanned: bundles.length,
      endpoint_count: endpoints.length,
      endpoints,
      hosts,
      truncated: page.bundles.length > chosen.length,
      ...(warnings.length ? { warnings: [...new Set(warnings)].slice(0, MAX_WARNINGS) } : {}),
    };
  }

  /** The maps the bundles name (inline `data:` maps read as they are), the first `maxSourceMaps` fetched. */
  private async sourceMaps(
    bundles: ScanSource[],
    signal: AbortSignal,
    warnings: string[],
  ): Promise<Array<{ source: ScanSource; owner: number }>> {
    const { http, settings } = this.deps;
    const named = bundles.flatMap((bundle, owner) => {
      const located = sourceMapUrl(bundle.text, bundle.url!);
      return located ? [{ bundle, owner, ...located }] : [];
    });
    const wanted = named.slice(0, settings.maxSourceMaps);
    if (named.length > wanted.length) warnings.push(`${named.length - wanted.length} source maps not read (endpoints.maxSourceMaps)`);
    const texts = await mapBounded(wanted, settings.concurrency, async (map) =>
      map.inline !== undefined
        ? { text: map.inline, truncated: false }
        : fetchScript(http, map.url!, settings.maxSourceMapBytes, false, signal),
    );
    return wanted.flatMap((map, i) => {
      const outcome = texts[i]!;
      if ('error' in outcome) {
        warnings.push(`${map.bundle.name}: its source map was not read (${outcome.error})`);
        return [];
      }
      return [
        {
          owner: map.owner,
          source: {
            type: 'source-map' as const,
            text: outcome.text,
            name: map.bundle.name,
            url: map.url ?? map.bundle.url,
            pageUrl: map.bundle.pageUrl,
          },
        },
      ];
    });
  }
}
