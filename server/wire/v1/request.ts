/**
 * /v1 request bodies parsed into the internal model: POST /v1/scrape, the `scrape_options` of
 * POST /v1/crawl and the flat options of POST /v1/batch. Each schema is the internal one (core
 * fields + plugin-declared fields, crawl and batch fields) under /v1 names, so validation
 * messages name the fields the caller sent (`Invalid field only_main_content: …`), and the
 * OpenAPI document is generated from the same schemas.
 */
import type { ComposedRequest } from '../../../core/model/compose.ts';
import type { ScrapeRequest } from '../../../core/model/request.ts';
import type { CrawlService } from '../../../core/features/crawl/service.ts';
import type { BatchRequest, CrawlRequest, ScrapeOptions } from '../../../core/features/crawl/schema.ts';
import { fromV1Name, renameKeys, v1Object } from './names.ts';

const toModel = <T>(body: object): T => renameKeys<T>(body, fromV1Name);

/** Built once per scraper or crawl service (they are built once at boot), not once per request. */
function once<K extends object, V>(build: (key: K) => V): (key: K) => V {
  const built = new WeakMap<K, V>();
  return (key) => {
    if (!built.has(key)) built.set(key, build(key));
    return built.get(key)!;
  };
}

/** The body of POST /v1/scrape. */
export const v1ScrapeSchema = once((request: ComposedRequest) =>
  v1Object(request.schema.shape).transform((body) => toModel<ScrapeRequest>(body)));

function v1ScrapeOptions(service: CrawlService) {
  return v1Object(service.fields.scrapeOptions.shape);
}

/** The body of POST /v1/crawl. */
export const v1CrawlSchema = once((service: CrawlService) =>
  v1Object(service.fields.crawl)
    .extend({ scrape_options: v1ScrapeOptions(service).prefault({}).describe('The options of POST /v1/scrape (without url), applied to every page.') })
    .transform(({ scrape_options: options, ...crawl }): CrawlRequest => ({ ...toModel<Omit<CrawlRequest, 'scrapeOptions'>>(crawl), scrapeOptions: toModel<ScrapeOptions>(options as object) })));

/** The body of POST /v1/batch: the URLs and the scrape options side by side. */
export const v1BatchSchema = once((service: CrawlService) =>
  v1ScrapeOptions(service)
    .extend(v1Object(service.fields.batch).shape)
    .transform(({ urls, webhook_url: webhookUrl, ...options }): BatchRequest => ({
      urls: urls as string[],
      ...(webhookUrl ? { webhookUrl: webhookUrl as string } : {}),
      scrapeOptions: toModel<ScrapeOptions>(options),
    })));

