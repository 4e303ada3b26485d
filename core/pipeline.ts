/**
 * The pipeline: fetch → content stages (detect → transform → format; content-stages.ts) → sink,
 * with the run mode of each stage (first match, first match, in order, in parallel, in parallel),
 * per-stage timings, and errors that carry the stage and plugin id. Fetching (I/O), the refetch
 * an app shell asks for, the completion of formats that need services (a language model), sinks
 * and the result stay on this thread; the content stages run where the ContentRunner puts them
 * (a worker in a server).
 */
import type { Logger } from 'pino';
import { PageDocument } from './document.ts';
import { FETCH_PROXY, FETCHER_ID } from './data-bag.ts';
import { type FaviconCheck, GUESSED_FAVICON_PATH } from './net/favicon.ts';
import { asTrawlError, TrawlError } from './errors.ts';
import { fetchWithAttempts, plannedAttempts, type FetcherEntry } from './fetch-attempts.ts';
import { blockedError, recogniseBlock } from './blocked.ts';
import type { Job } from './job.ts';
import type { ScrapeResult } from './model/result.ts';
import type { PluginRegistry } from './registry.ts';
import type { FetcherHandler } from './plugin.ts';
import type { Metrics } from './metrics.ts';
import { ContentRunner } from './content-runner.ts';
import { stage } from './content-stages.ts';

const STAGES = new Set(['fetch', 'detect', 'transform', 'format', 'refetch', 'complete', 'sink']);

export interface PipelineResult {
  doc: PageDocument;
  /** The internal result; each wire format presents it in its own shape. */
  result: ScrapeResult;
}

export class Pipeline {
  private readonly content: ContentRunner;
  private readonly pluginIds: ReadonlySet<string>;

  /** `proxyPools`: pool names in configuration order, which `proxy: "auto"` escalates through. */
  /** `favicons`: checks a guessed `/favicon.ico`; without it a guess is never answered. */
  constructor(
    private readonly registry: PluginRegistry,
    private readonly logger: Logger,
    content?: ContentRunner,
    private readonly metrics?: Metrics,
    private readonly proxyPools: readonly string[] = [],
    private readonly favicons?: FaviconCheck,
  ) {
    this.content = content ?? new ContentRunner(registry, logger);
    this.pluginIds = new Set(registry.all().map((plugin) => plugin.id));
  }

  async run(job: Job): Promise<PipelineResult> {
    let current: PageDocument | null = null;
    try {
      const first = (current = await this.fetch(job));
      const { rerender } = await this.content.run(first, false);
      const doc = (current = rerender ? await this.refetch(first, rerender) : first);
      const completing = this.completing(doc);
      const favicon = this.checkFavicon(doc);
      if (completing.length) await stage(doc, 'complete', () => this.complete(doc, completing));
      await favicon;
      const result = resultOf(doc);
      await stage(doc, 'sink', () => this.sink(doc, result));
      this.record(doc);
      return { doc, result };
    } catch (err) {
      this.record(current ?? new PageDocument(job), asTrawlError(err).stage ?? 'unknown');
      throw err;
    }
  }

  /** Stage and plugin timings into the metrics: stage names and plugin ids are the only labels. */
  private record(doc: PageDocument, failedStage?: string): void {
    if (!this.metrics) return;
    const fetcher = doc.data.get(FETCHER_ID);
    for (const [name, ms] of Object.entries(doc.timings)) {
      if (STAGES.has(name)) this.metrics.stageDuration.observe({ stage: name }, ms / 1000);
      else if (this.pluginIds.has(name)) this.metrics.pluginDuration.observe({ plugin: name }, ms / 1000);
    }
    if (fetcher && doc.timings.fetch !== undefined) this.metrics.pluginDuration.observe({ plugin: fetcher }, doc.timings.fetch / 1000);
    this.metrics.scrapes.inc({
      outcome: failedStage ? 'failed' : 'ok',
      stage: !failedStage ? 'none' : STAGES.has(failedStage) ? failedStage : 'other',
    });
  }

  /** The fetch stage: one attempt, or the escalation of `proxy: "auto"`; a blocked page ends the run here. */
  private async fetch(job: Job): Promise<PageDocument> {
    const fetchers: FetcherEntry[] = this.registry.active('fetcher');
    const chosen = [...this.registry.active('source'), ...fetchers].find((p) => p.handler.matches(job));
    if (!chosen) throw new TrawlError('capability_missing', 'No enabled fetcher plugin can fetch this URL', { stage: 'fetch' });
    // A source (a video page) stays itself: only a page fetched by a fetcher may be rendered instead.
    const renderer = fetchers.includes(chosen)
      ? (fetchers.find((p) => p.handler.renders && p.handler.canRefetch?.() !== false) ?? null)
      : null;
    const attempts = plannedAttempts(job, chosen, renderer, this.proxyPools);
    return fetchWithAttempts(job, attempts, {
      blockers: this.registry.active('blocker'),
      fetchWith: (doc, fetcher) => this.fetchWith(doc, fetcher),
      metrics: this.metrics,
    });
  }

  private async fetchWith(doc: PageDocument, fetcher: { id: string; handler: FetcherHandler }): Promise<void> {
    try {
      await fetcher.handler.fetch(doc);
    } catch (err) {
      throw asTrawlError(err, 'fetch', fetcher.id);
    }
    doc.data.set(FETCHER_ID, fetcher.id);
  }

  /**
   * After detect, another fetcher asked to fetch the page again (the browser renders a static page
   * that turned out to be an empty app shell). Best effort: if that fails, the first page (already
   * finished) stands, with a warning.
   */
  private async refetch(first: PageDocument, fetcherId: string): Promise<PageDocument> {
    const fetcher = this.registry.active('fetcher').find((p) => p.id === fetcherId);
    if (!fetcher || fetcher.handler.canRefetch?.() === false) return first;
    const doc = new PageDocument(first.job);
    Object.assign(doc.timings, first.timings);
    try {
      await stage(doc, 'refetch', () => this.fetchWith(doc, fetcher));
      const verdict = recogniseBlock(this.registry.active('blocker'), doc.response, this.metrics);
      if (verdict) throw blockedError(verdict, doc.response);
      await this.content.run(doc, true);
      return doc;
    } catch (err) {
      if (first.job.signal.aborted) throw err;
      first.warn('fetch', fetcher.id, `Fetching the page again failed; it is returned as first fetched: ${asTrawlError(err).message}`);
      return first;
    }
  }

  /** Rendered formats whose plugin finishes them here, on the server thread. */
  private completing(doc: PageDocument) {
    const formats = this.registry.active('format');
    return doc.job.formats.flatMap((format) => {
      const plugin = formats.find((p) => p.definition.provides?.includes(`format:${format}`));
      return plugin?.handler.complete && format in doc.outputs ? [{ format, plugin }] : [];
    });
  }

  /** Side by side; one that fails keeps its rendered output, with a warning, and the others still finish. */
  private async complete(doc: PageDocument, completing: ReturnType<Pipeline['completing']>): Promise<void> {
    await Promise.all(
      completing.map(async ({ format, plugin }) => {
        try {
          doc.outputs[format] = await plugin.handler.complete!(doc.outputs[format], doc);
        } catch (err) {
          if (doc.job.signal.aborted) throw err;
          const error = asTrawlError(err, 'complete', plugin.id);
          this.logger.warn({ err: error, plugin: plugin.id, url: doc.job.url }, 'format completion failed');
          doc.warn('format', plugin.id, `Format "${format}" could not be completed: ${error.message}`);
        }
      }),
    );
  }

  /**
   * `metadata.favicon` is a URL that answers, or null: a declared icon is kept as the page states
   * it, the origin's `/favicon.ico` (the guess when none is declared) only once it was checked.
   */
  private async checkFavicon(doc: PageDocument): Promise<void> {
    const favicon = doc.metadata.favicon;
    if (!favicon || new URL(favicon).pathname !== GUESSED_FAVICON_PATH) return;
    doc.metadata.favicon = this.favicons ? await this.favicons.verified(favicon, doc.data.get(FETCH_PROXY)) : null;
  }

  /** Sinks never fail a scrape: the user already has the content. */
  private async sink(doc: PageDocument, result: ScrapeResult): Promise<void> {
    await Promise.all(
      this.registry.active('sink').map(async (plugin) => {
        try {
          await plugin.handler.write(doc, result);
        } catch (err) {
          this.logger.error({ err, plugin: plugin.id, url: doc.job.url }, 'sink failed');
        }
      }),
    );
  }
}

/** The result of a finished document: the requested formats in request order, then what the fetch added. */
export function resultOf(doc: PageDocument): ScrapeResult {
  const formats: Record<string, unknown> = {};
  for (const format of doc.job.formats) if (format in doc.outputs) formats[format] = doc.outputs[format];
  const result: ScrapeResult = { url: doc.job.url, metadata: doc.metadata, formats, warnings: [...doc.messages] };
  if (doc.actions) result.actions = doc.actions;
  if (doc.screenshot !== null) result.screenshot = doc.screenshot;
  return result;
}
