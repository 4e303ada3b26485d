/**
 * The scrape service: checks that every requested capability has an enabled plugin, answers from
 * the response cache when it can, and otherwise runs the pipeline under the scrape time limit.
 * The HTTP route, the CLI and (later) crawl and batch all scrape through here.
 */
import type { Logger } from 'pino';
import { badRequest, TrawlError } from './errors.ts';
import { createJob, SPEC_FORMATS, type Job, type ScrapeRequest } from './job.ts';
import type { Pipeline } from './pipeline.ts';
import type { PluginRegistry } from './registry.ts';
import type { ResultStore } from './services.ts';
import type { TrawlConfig } from './config-schema.ts';
import { optionsHash } from './storage/results.ts';
import { validateBrowserFields } from './browser/validate-actions.ts';

export interface ScrapeOutcome {
  result: Record<string, unknown>;
  cached: boolean;
  timings: Record<string, number>;
}

export class Scraper {
  constructor(
    private readonly registry: PluginRegistry,
    private readonly pipeline: Pipeline,
    private readonly results: ResultStore | null,
    private readonly config: Readonly<TrawlConfig>,
    private readonly logger: Logger,
  ) {}

  /** Every format name a request may use: the spec's plus any a plugin adds. */
  knownFormats(): string[] {
    return [...new Set([...SPEC_FORMATS, ...this.registry.capabilityNames('format')])];
  }

  /** Throws a 400 naming the field or plugin when the request asks for something unavailable. */
  validate(job: Job): void {
    const known = this.knownFormats();
    job.formats.forEach((format, index) => {
      if (!known.includes(format)) {
        throw badRequest(`Invalid field formats[${index}]: unknown format "${format}". Valid formats: ${known.join(', ')}`);
      }
      this.requireCapability(`format:${format}`, `Format "${format}"`);
      const plugin = this.registry.providers(`format:${format}`).find((p) => p.enabled);
      const problem = (plugin?.handler as { validate?: (j: Job) => string | null } | undefined)?.validate?.(job);
      if (problem) throw badRequest(problem);
    });
    const options = job.options;
    if (options.only_main_content) this.requireCapability('transform:main-content', 'only_main_content');
    if (options.screenshot) this.requireCapability('fetch:screenshot', 'screenshot');
    if (options.mobile) this.requireCapability('fetch:mobile', 'mobile');
    if (options.actions?.length) this.requireCapability('fetch:actions', 'actions');
    if (options.render) this.requireCapability('fetch:render', 'render');
    validateBrowserFields(options, this.registry);
  }

  private requireCapability(capability: string, what: string): void {
    const providers = this.registry.providers(capability);
    if (providers.some((p) => p.enabled)) return;
    const message = providers.length
      ? `${what} needs plugin ${providers.map((p) => p.id).join(' or ')}, which is disabled in the configuration`
      : `${what} is not available: no installed plugin provides ${capability}`;
    throw new TrawlError('capability_missing', message);
  }

  async scrape(request: ScrapeRequest, workspace: string, signal?: AbortSignal): Promise<ScrapeOutcome> {
    const timeoutMs = request.timeout ?? this.config.scrape.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const job = createJob(request, workspace, combined);
    this.validate(job);

    const cacheTtl = this.config.storage.cacheTtlSeconds;
    if (this.results && !request.no_cache && cacheTtl > 0) {
      const hit = await this.results.findFresh(workspace, 'scrape', job.url, optionsHash(job), cacheTtl);
      if (hit) return { result: hit.output, cached: true, timings: {} };
    }

    let onAbort = () => {};
    const timedOut = new Promise<never>((_, reject) => {
      onAbort = () => reject(timeout.aborted
        ? new TrawlError('timeout', `Scrape timed out after ${timeoutMs} ms`)
        : new TrawlError('timeout', 'Scrape was cancelled by the client'));
      combined.addEventListener('abort', onAbort, { once: true });
    });
    timedOut.catch(() => {}); // the race below reports it; without this a late abort is an unhandled rejection
    try {
      const { doc, result } = await Promise.race([this.pipeline.run(job), timedOut]);
      this.logger.debug({ url: job.url, timings: doc.timings }, 'scraped');
      return { result, cached: false, timings: doc.timings };
    } finally {
      // The timeout signal lives until it fires; through this listener it would keep the whole
      // page (DOM, result) alive that long, which a crawl doing many pages a second cannot afford.
      combined.removeEventListener('abort', onAbort);
    }
  }
}
