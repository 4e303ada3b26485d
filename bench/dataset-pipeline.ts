/**
 * The real scrape pipeline over dev-set pages from memory, shared by the extraction and llm
 * benchmarks: a fetcher that serves the current page, then html document → clean → selectors →
 * main content → URL resolution → markdown with `only_main_content: true` (or false), exactly the plugins
 * and order a scrape runs, so the benchmarks measure what users get.
 */
import pino from 'pino';
import { loadConfig } from '../core/config.ts';
import type { PageDocument } from '../core/document.ts';
import { createJob } from '../core/job.ts';
import { composeRequestSchema } from '../core/model/compose.ts';
import { Pipeline } from '../core/pipeline.ts';
import { definePlugin, type AnyPlugin } from '../core/plugin.ts';
import { PluginRegistry } from '../core/registry.ts';
import { htmlDocument } from '../plugins/document/html/html.ts';
import { cleanTransform } from '../plugins/transform/clean/clean.ts';
import { selectorsTransform } from '../plugins/transform/selectors/selectors.ts';
import { mainContentTransform } from '../plugins/transform/main-content/main-content.ts';
import { resolveUrlsTransform } from '../plugins/transform/resolve-urls/resolve-urls.ts';
import { markdownFormat } from '../plugins/format/markdown/markdown.ts';
import type { Page } from './extraction-data.ts';

/**
 * Sets the pipeline up once; the returned function scrapes one page (markdown, main content only
 * unless `onlyMainContent` is false: the whole page).
 */
export async function datasetPipeline(onlyMainContent = true): Promise<(page: Page) => Promise<PageDocument>> {
  let current: Page | null = null;
  const datasetFetcher = definePlugin({
    kind: 'fetcher',
    name: 'dataset',
    description: 'Serves the current dev-set page from memory.',
    setup: () => ({
      matches: () => true,
      async fetch(doc) {
        doc.response = {
          status: 200,
          headers: {},
          body: new Uint8Array(0),
          finalUrl: doc.job.url,
          mediaType: 'text/html',
          text: current!.html,
          charset: 'utf-8',
        };
      },
    }),
  });
  const plugins = [
    datasetFetcher,
    htmlDocument,
    cleanTransform,
    selectorsTransform,
    mainContentTransform,
    resolveUrlsTransform,
    markdownFormat,
  ] as unknown as AnyPlugin[];
  const config = loadConfig({ plugins, env: {}, defaultFile: null, overrides: { log: { level: 'silent' } } });
  const registry = new PluginRegistry(plugins, config);
  const logger = pino({ level: 'silent' });
  await registry.setup(() => ({
    logger,
    config,
    resolve: () => {
      throw new Error('no services in the bench');
    },
  }));
  const pipeline = new Pipeline(registry, logger);
  const requests = composeRequestSchema(plugins);
  return async (page) => {
    current = page;
    // 24 Mozilla test pages have no known URL; a reserved host stands in.
    const url = page.url || `https://dataset.invalid/${page.id}`;
    const parsed = requests.parse({ url, formats: ['markdown'], onlyMainContent });
    if (!parsed.success) throw new Error(`bench request is invalid: ${parsed.error.message}`);
    const job = createJob(parsed.data, 'bench', new AbortController().signal);
    return (await pipeline.run(job)).doc;
  };
}
