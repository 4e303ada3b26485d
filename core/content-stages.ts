/**
 * The CPU half of the pipeline: detect (document plugins' detect + parse), the automatic-rendering
 * check, transforms, the word count and formats. It runs on whatever thread holds the
 * PageDocument: a content worker (content-task.ts) in a server, the calling thread with pool size
 * 0 and in tests. It only reads the registry's document, transform and format handlers and the
 * fetchers' setup-free `rerender` metadata, so a worker needs no services to run it.
 */
import type { Logger } from 'pino';
import type { PageDocument } from './document.ts';
import { FETCHER_ID } from './data-bag.ts';
import { wordCountOf } from './dom.ts';
import { asTrawlError, TrawlError } from './errors.ts';
import type { Job } from './job.ts';
import type { PluginRegistry } from './registry.ts';

export interface ContentOutcome {
  /**
   * Another fetcher asks to fetch the page again (an app shell): the caller refetches and runs
   * these stages on the new page. This page is finished anyway (an app shell is tiny), so it
   * stands as it is if the refetch fails.
   */
  rerender?: string;
}

/** Times a stage into `doc.timings` and wraps what it throws with the stage name (cancellation wins). */
export async function stage(doc: PageDocument, name: string, work: () => Promise<void>): Promise<void> {
  const started = performance.now();
  try {
    if (doc.job.signal.aborted) throw abortError(doc.job);
    await work();
  } catch (err) {
    throw asTrawlError(doc.job.signal.aborted ? abortError(doc.job) : err, name);
  } finally {
    doc.timings[name] = Math.round((performance.now() - started) * 100) / 100;
  }
}

function abortError(job: Job): TrawlError {
  const reason = job.signal.reason;
  return reason instanceof TrawlError ? reason : new TrawlError('timeout', 'Scrape was cancelled or timed out');
}

export interface ContentOptions {
  /** A page fetched again is never fetched a third time: do not ask the fetchers. */
  refetched?: boolean;
  /**
   * Called between stages, outside their error wrapping: a worker checks its heap here and throws
   * the pool's own memory error, which a stage would have turned into a 500.
   */
  checkpoint?: () => void;
}

/**
 * Detect, transforms, word count and formats; after detect — unless `refetched` — the other
 * fetchers are asked whether to fetch the page again.
 */
export async function runContentStages(
  doc: PageDocument,
  registry: PluginRegistry,
  logger: Logger,
  options: ContentOptions = {},
): Promise<ContentOutcome> {
  const checkpoint = options.checkpoint ?? (() => {});
  await stage(doc, 'detect', () => detect(doc, registry));
  checkpoint();
  const rerender = options.refetched ? undefined : rerenderer(doc, registry);
  await stage(doc, 'transform', async () => {
    capture(doc, registry);
    await transform(doc, registry);
  });
  checkpoint();
  doc.metadata.wordCount = doc.root ? wordCountOf(doc.root) : 0;
  await stage(doc, 'format', () => format(doc, registry, logger));
  return rerender ? { rerender } : {};
}

/** The first enabled fetcher, other than the one that produced the page, whose `rerender` says yes. */
function rerenderer(doc: PageDocument, registry: PluginRegistry): string | undefined {
  const producer = doc.data.get(FETCHER_ID);
  const fetchers = registry.all().filter((p) => p.enabled && p.definition.kind === 'fetcher' && p.id !== producer);
  return fetchers.find((p) => p.definition.rerender?.(doc, p.options))?.id;
}

async function detect(doc: PageDocument, registry: PluginRegistry): Promise<void> {
  if (!doc.response) throw new TrawlError('internal', 'The fetcher returned no response');
  for (const plugin of registry.active('document')) {
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

/**
 * The requested formats that read the page as fetched take what they need before transforms change
 * it. A capture that fails is a warning, as a failing format is; its format then renders what is left.
 */
function capture(doc: PageDocument, registry: PluginRegistry): void {
  for (const format of doc.job.formats) {
    const plugin = formatPlugin(registry, format);
    if (!plugin?.handler.capture) continue;
    try {
      plugin.handler.capture(doc);
    } catch (err) {
      doc.warn('format', plugin.id, `Format "${format}" could not read the page before transforms: ${asTrawlError(err).message}`);
    }
  }
}

const formatPlugin = (registry: PluginRegistry, format: string) =>
  registry.active('format').find((p) => p.definition.provides?.includes(`format:${format}`));

async function transform(doc: PageDocument, registry: PluginRegistry): Promise<void> {
  for (const plugin of registry.active('transform')) {
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
async function format(doc: PageDocument, registry: PluginRegistry, logger: Logger): Promise<void> {
  const jobs = doc.job.formats.map(async (format) => {
    const plugin = formatPlugin(registry, format);
    if (!plugin) throw new TrawlError('capability_missing', `No enabled plugin renders format "${format}"`);
    try {
      doc.outputs[format] = await plugin.handler.render(doc);
    } catch (err) {
      const error = asTrawlError(err, 'format', plugin.id);
      if (error.code === 'capability_missing') throw error;
      logger.warn({ err: error, plugin: plugin.id, url: doc.job.url }, 'format failed');
      doc.warn('format', plugin.id, `Format "${format}" failed: ${error.message}`);
    }
  });
  await Promise.all(jobs);
}
