/**
 * The explicit list of built-in plugins. Order matters where a stage takes the first match
 * (sources and fetchers, document types) and among transforms of the same `order`.
 * Adding a plugin is one import and one entry here, plus its table in config/default.toml.
 */
import type { AnyPlugin } from '../core/plugin.ts';
import { httpFetcher } from './fetcher/http/http.ts';
import { htmlDocument } from './document/html/html.ts';
import { cleanTransform } from './transform/clean/clean.ts';
import { selectorsTransform } from './transform/selectors/selectors.ts';
import { mainContentTransform } from './transform/main-content/main-content.ts';
import { resolveUrlsTransform } from './transform/resolve-urls/resolve-urls.ts';
import { markdownFormat } from './format/markdown/markdown.ts';
import { textFormat } from './format/text/text.ts';
import { linksFormat } from './format/links/links.ts';
import { rawHtmlFormat } from './format/raw-html/raw-html.ts';
import { resultsSink } from './sink/results/results.ts';

export const builtinPlugins: readonly AnyPlugin[] = [
  httpFetcher,
  htmlDocument,
  cleanTransform,
  selectorsTransform,
  mainContentTransform,
  resolveUrlsTransform,
  markdownFormat,
  textFormat,
  linksFormat,
  rawHtmlFormat,
  resultsSink,
] as unknown as readonly AnyPlugin[];
