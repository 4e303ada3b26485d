/**
 * The pipeline: fetch → detect → transform → format → sink, with the run mode of each stage
 * (first match, first match, in order, in parallel, in parallel), per-stage timings, and errors
 * that carry the stage and plugin id.
 */
import type { Logger } from 'pino';
import { PageDocument } from './document.ts';
import { FETCHER_ID } from './data-bag.ts';
import { countWords, textOf } from './dom.ts';
import { asTrawlError, TrawlError } from './errors.ts';
import type { Job } from './job.ts';
import type { ScrapeResult } from './model/result.ts';
import type { PluginRegistry } from './registry.ts';
import type { FetcherHandler } from './plugin.ts';

export interface PipelineResult {
  doc: PageDocument;
  /** The internal result; each wire format presents it in its own shape. */
  result: ScrapeResult;
}

export class Pipeline {
  constructor(private readonly registry: PluginRegistry, private readonly logger: Logger) {}

  async run(job: Job): Promise<PipelineResult> {
    const first = new PageDocument(job);
    await this.stage(first, 'fetch', () => this.fetch(first));
    await this.stage(first, 'detect', () => this.detect(first));
    const doc = await this.refetch(first);
    await this.stage(doc, 'transform', () => this.transform(doc));
    doc.metadata.wordCount = doc.root ? countWords(textOf(doc.root)) : 0;
    await this.stage(doc, 'format', () => this.format(doc));
    const result = resultOf(doc);
    await this.stage(doc, 'sink', () => this.sink(doc, result));
    return { doc, result };
  }

  private async stage(doc: PageDocument, name: string, work: () => Promise<void>): Promise<void> {
    const started = performance.now();
    try {
      if (doc.job.signal.aborted) throw this.abortError(doc.job);
      await work();
    } catch (err) {
      throw asTrawlError(doc.job.signal.aborted ? this.abortError(doc.job) : err, name);
    } finally {
      doc.timings[name] = Math.round((performance.now() - started) * 100) / 100;
    }
  }

  private abortError(job: Job): TrawlError {
    const reason = job.signal.reason;
    return reason instanceof TrawlError ? reason : new TrawlError('timeout', 'Scrape was cancelled or timed out');
  }

  private async fetch(doc: PageDocument): Promise<void> {
    const candidates = [...this.registry.active('source'), ...this.registry.active('fetcher')];
    const chosen = candidates.find((p) => p.handler.matches(doc.job));
    if (!chosen) throw new TrawlError('capability_missing', 'No enabled fetcher plugin can fetch this URL', { stage: 'fetch' });
    await this.fetchWith(doc, chosen);
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
   * After detect, another fetcher may ask to fetch the page again (the browser renders a static
   * page that turned out to be an empty app shell). Best effort: if that fails, the first page
   * stands, with a warning.
   */
  private async refetch(first: PageDocument): Promise<PageDocument> {
    const producer = first.data.get(FETCHER_ID);
    const fetcher = this.registry.active('fetcher').find((p) => p.id !== producer && p.handler.shouldRerender?.(first));
    if (!fetcher) return first;
    const doc = new PageDocument(first.job);
    Object.assign(doc.timings, first.timings);
    try {
      await this.stage(doc, 'refetch', () => this.fetchWith(doc, fetcher));
      await this.stage(doc, 'detect', () => this.detect(doc));
      return doc;
    } catch (err) {
      if (first.job.signal.aborted) throw err;
      first.warn('fetch', fetcher.id, `Fetching the page again failed; it is returned as first fetched: ${asTrawlError(err).message}`);
      return first;
    }
  }

  private async detect(doc: PageDocument): Promise<void> {
    if (!doc.response) throw new TrawlError('internal', 'The fetcher returned no response');
    for (const plugin of this.registry.active('document')) {
      if (!(await plugin.handler.detect(doc))) continue;
      doc.type = plugin.id;
      try {
        await plugin.handler.parse(doc);
      } catch (err) {
        throw asTrawlError(err, 'detect', plugin.id);
      }
      if (!doc.root) throw new TrawlError('unprocessable', `${plugin.id} produced no content`, { pluginId: plugin.id });
      return;
    }
    throw new TrawlError('unsupported_content', `Unsupported content type: ${doc.response.mediaType || 'unknown'}`);
  }

  private async transform(doc: PageDocument): Promise<void> {
    for (const plugin of this.registry.active('transform')) {
      const started = performance.now();
      try {
        await plugin.handler.apply(doc);
      } catch (err) {
        throw asTrawlError(err, 'transform', plugin.id);
      }
      doc.timings[plugin.id] = Math.round((performance.now() - started) * 100) / 100;
    }
  }

  /** Formats run side by side; one that fails becomes a warning and the others still return. */
  private async format(doc: PageDocument): Promise<void> {
    const jobs = doc.job.formats.map(async (format) => {
      const plugin = this.registry.active('format').find((p) => p.definition.provides?.includes(`format:${format}`));
      if (!plugin) throw new TrawlError('capability_missing', `No enabled plugin renders format "${format}"`);
      try {
        doc.outputs[format] = await plugin.handler.render(doc);
      } catch (err) {
        const error = asTrawlError(err, 'format', plugin.id);
        if (error.code === 'capability_missing') throw error;
        this.logger.warn({ err: error, plugin: plugin.id, url: doc.job.url }, 'format failed');
        doc.warn('format', plugin.id, `Format "${format}" failed: ${error.message}`);
      }
    });
    await Promise.all(jobs);
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
