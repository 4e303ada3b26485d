/**
 * The scrape service: owns the request schema (core fields + the fields plugins declare), checks
 * that every requested format and every set plugin field has an enabled plugin, answers from the
 * response cache when it can, and otherwise runs the pipeline under the scrape time limit. Every
 * wire format, the CLI, crawl and batch scrape through here with an internal `ScrapeRequest`.
 */
import type { Logger } from 'pino';
import { badRequest, TrawlError } from './errors.ts';
import { createJob, type Job } from './job.ts';
import { SPEC_FORMATS, type ScrapeRequest } from './model/request.ts';
import { composeRequestSchema, isSet, type ComposedRequest } from './model/compose.ts';
import type { ScrapeResult, PipelineMessage } from './model/result.ts';
import type { Units } from './metering.ts';
import type { FieldNamer } from './plugin.ts';
import type { Pipeline } from './pipeline.ts';
import type { PluginRegistry } from './registry.ts';
import type { ResultStore } from './services.ts';
import type { TrawlConfig } from './config-schema.ts';
import { optionsHash } from './storage/results.ts';
import { validateBrowserFields } from './browser/validate-actions.ts';
import { RESULT_ID } from './data-bag.ts';
import { proxyChoiceProblem } from './net/proxies.ts';

const isTransientStatus = (status: number | undefined) => status !== undefined && (status === 429 || status >= 500);

/** Messages name fields as they are called internally unless the caller says otherwise. */
export const internalNames: FieldNamer = (path) => path;

export interface ScrapeOutcome {
  result: ScrapeResult;
  /** The stored result's id (a cache hit's, or the row the results sink wrote), when results are stored. */
  resultId?: string;
  cached: boolean;
  timings: Record<string, number>;
}

export class Scraper {
  /** The request schema of the installed plugins (enabled or not: a disabled plugin's field is a 400 naming it, not an unknown field). */
  readonly request: ComposedRequest;

  constructor(
    private readonly registry: PluginRegistry,
    private readonly pipeline: Pipeline,
    private readonly results: ResultStore | null,
    private readonly config: Readonly<TrawlConfig>,
    private readonly logger: Logger,
  ) {
    this.request = composeRequestSchema(registry.all().map((p) => p.definition));
  }

  /** Every format name a request may use: the spec's plus any a plugin adds. */
  knownFormats(): string[] {
    return (this.formats ??= [...new Set([...SPEC_FORMATS, ...this.registry.capabilityNames('format')])]);
  }
  private formats?: string[];

  /** The cost-table units a scrape asking for `formats` adds: one of each such format's declared unit (the language-model formats). */
  formatUnits(formats: readonly string[]): Units {
    const units: Units = {};
    for (const { definition } of this.registry.all()) {
      const { cost } = definition;
      if (cost && definition.kind === 'format' && formats.some((format) => definition.provides?.includes(`format:${format}`)))
        units[cost.unit] = (units[cost.unit] ?? 0) + 1;
    }
    return units;
  }

  /** Throws a 400 naming the field or plugin when the request asks for something unavailable. */
  validate(job: Job, name: FieldNamer = internalNames): void {
    const known = this.knownFormats();
    job.formats.forEach((format, index) => {
      if (!known.includes(format)) {
        throw badRequest(`Invalid field ${name(`formats[${index}]`)}: unknown format "${format}". Valid formats: ${known.join(', ')}`);
      }
      this.requireCapability(`format:${format}`, `Format "${format}"`);
      const plugin = this.registry.active('format').find((p) => p.definition.provides?.includes(`format:${format}`));
      const problem = plugin?.handler.validate?.(job, name);
      if (problem) throw badRequest(problem);
    });
    const request = job.request as unknown as Record<string, unknown>;
    for (const [field, providers] of this.request.providers) {
      if (!providers.needsPlugin || !isSet(request[field])) continue;
      if (this.registry.all().some((p) => p.enabled && providers.ids.includes(p.id))) continue;
      throw new TrawlError(
        'capability_missing',
        `${name(field)} needs plugin ${providers.ids.join(' or ')}, which is disabled in the configuration`,
      );
    }
    for (const transform of this.registry.active('transform')) {
      const problem = transform.handler.validate?.(job, name);
      if (problem) throw badRequest(problem);
    }
    validateBrowserFields(job.request, this.registry, name);
    const proxyProblem =
      job.request.proxy === undefined ? null : proxyChoiceProblem(Object.keys(this.config.fetch.proxies), job.request.proxy);
    if (proxyProblem) throw badRequest(`Invalid field ${name('proxy')}: ${proxyProblem}`);
  }

  /**
   * Options only a format uses, sent without that format (`query` without the `query` format,
   * `attribute_selectors` without `attributes`): ignored, and said so in the answer's warnings.
   * A warning rather than a 400: clients that send such an option with every request keep working,
   * and nobody is left guessing why the answer has no `query_answer`.
   */
  private unusedOptions(job: Job, name: FieldNamer): PipelineMessage[] {
    const request = job.request as unknown as Record<string, unknown>;
    const notes: PipelineMessage[] = [];
    for (const plugin of this.registry.all()) {
      if (plugin.definition.kind !== 'format') continue;
      const formats = (plugin.definition.provides ?? []).filter((c) => c.startsWith('format:')).map((c) => c.slice('format:'.length));
      if (formats.some((format) => job.formats.includes(format))) continue;
      for (const field of Object.keys(plugin.definition.api?.requestFields ?? {})) {
        if (!isSet(request[field])) continue;
        const needed = formats.map((format) => `"${format}"`).join(' or ');
        notes.push({
          level: 'warning',
          stage: 'request',
          plugin: plugin.id,
          message: `${name(field)} is used only with the ${needed} format, which was not requested: it was ignored`,
        });
      }
    }
    return notes;
  }

  private requireCapability(capability: string, what: string): void {
    const providers = this.registry.providers(capability);
    if (providers.some((p) => p.enabled)) return;
    const message = providers.length
      ? `${what} needs plugin ${providers.map((p) => p.id).join(' or ')}, which is disabled in the configuration`
      : `${what} is not available: no installed plugin provides ${capability}`;
    throw new TrawlError('capability_missing', message);
  }

  /** `name` is how the caller's wire format names request fields, for messages. */
  async scrape(request: ScrapeRequest, workspace: string, signal?: AbortSignal, name: FieldNamer = internalNames): Promise<ScrapeOutcome> {
    // `timeout` bounds the whole scrape, fetch included: one deadline, and a signal that fires at it
    // carrying the answer, so whichever part is running (a fetch, a worker) stops with that message.
    const timeoutMs = request.timeoutMs ?? this.config.scrape.timeoutMs;
    const deadline = Date.now() + timeoutMs;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new TrawlError('timeout', `Scrape timed out after ${timeoutMs} ms`)), timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal;
    try {
      const job = createJob(request, workspace, combined, deadline);
      this.validate(job, name);
      const notes = this.unusedOptions(job, name);
      const noted = (outcome: ScrapeOutcome): ScrapeOutcome =>
        notes.length ? { ...outcome, result: { ...outcome.result, warnings: [...notes, ...outcome.result.warnings] } } : outcome;

      const hit = await this.fromCache(job);
      return noted(hit ?? (await this.run(job, combined, timeout.signal)));
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The kept answer `scrape` would give without fetching, or null. A caller that must queue before
   * a fetch (a crawl's per-host politeness slot) asks first, so a kept page waits for no slot; it
   * then scrapes with `noCache`, which skips only this lookup.
   */
  async cached(request: ScrapeRequest, workspace: string, name: FieldNamer = internalNames): Promise<ScrapeOutcome | null> {
    const job = createJob(request, workspace, AbortSignal.any([]));
    this.validate(job, name);
    const hit = await this.fromCache(job);
    const notes = hit ? this.unusedOptions(job, name) : [];
    return hit && notes.length ? { ...hit, result: { ...hit.result, warnings: [...notes, ...hit.result.warnings] } } : hit;
  }

  private async fromCache(job: Job): Promise<ScrapeOutcome | null> {
    const { request } = job;
    const cacheTtl = Math.min(
      this.config.storage.cacheTtlSeconds,
      request.maxAgeMs === undefined ? Infinity : Math.floor(request.maxAgeMs / 1000),
    );
    if (!this.results || request.noCache || cacheTtl <= 0) return null;
    const hit = await this.results.findFresh(job.workspace, 'scrape', job.url, optionsHash(job), cacheTtl);
    // A 429 or 5xx page said "not now": answering it again from the cache would repeat the refusal.
    if (!hit || isTransientStatus((hit.output as unknown as ScrapeResult).metadata?.statusCode)) return null;
    return { result: hit.output as unknown as ScrapeResult, resultId: hit.id, cached: true, timings: {} };
  }

  /** The pipeline, raced against the signal so a stage that does not listen to it still ends on time. */
  private async run(job: Job, combined: AbortSignal, timeout: AbortSignal): Promise<ScrapeOutcome> {
    let onAbort = () => {};
    const stopped = new Promise<never>((_, reject) => {
      onAbort = () => reject(timeout.aborted ? timeout.reason : new TrawlError('timeout', 'Scrape was cancelled by the client'));
      combined.addEventListener('abort', onAbort, { once: true });
    });
    stopped.catch(() => {}); // the race below reports it; without this a late abort is an unhandled rejection
    try {
      const { doc, result } = await Promise.race([this.pipeline.run(job), stopped]);
      this.logger.debug({ url: job.url, timings: doc.timings }, 'scraped');
      const resultId = doc.data.get(RESULT_ID);
      return { result, ...(resultId ? { resultId } : {}), cached: false, timings: doc.timings };
    } finally {
      // Through this listener the signal would keep the whole page (DOM, result) alive until it is
      // collected, which a crawl doing many pages a second cannot afford.
      combined.removeEventListener('abort', onAbort);
    }
  }
}
