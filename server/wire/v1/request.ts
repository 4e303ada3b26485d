/**
 * /v1 request bodies parsed into the internal model: POST /v1/scrape, the `scrape_options` of
 * POST /v1/crawl, the flat options of POST /v1/batch, POST /v1/search, /v1/extract and /v1/summarize. Each schema is the internal one (core
 * fields + plugin-declared fields, crawl and batch fields) under /v1 names, so validation
 * messages name the fields the caller sent (`Invalid field only_main_content: …`), and the
 * OpenAPI document is generated from the same schemas.
 */
import type { z } from 'zod';
import type { ComposedRequest } from '../../../core/model/compose.ts';
import type { ScrapeRequest } from '../../../core/model/request.ts';
import type { CrawlService } from '../../../core/features/crawl/service.ts';
import type { BatchRequest, CrawlRequest, ScrapeOptions } from '../../../core/features/crawl/schema.ts';
import { searchRequestFields, type SearchRequest } from '../../../core/features/search/request.ts';
import { extractRequestFields, type ExtractRequest } from '../../../core/llm/extract/request.ts';
import { summarizeRequestFields, type SummarizeRequest } from '../../../core/llm/summarize/request.ts';
import { brandRequestFields, type BrandRequest } from '../../../core/features/brand/request.ts';
import { leadBatchRequestFields, leadRequestFields, type LeadBatchRequest, type LeadRequest } from '../../../core/features/lead/request.ts';
import { fromV1Name, renameKeys, v1Object } from './names.ts';
import { oncePer } from '../../../core/once.ts';

const toModel = <T>(body: object): T => renameKeys<T>(body, fromV1Name);

/** Scrape options to the model: field names, and the names inside each action (`full_page` → `fullPage`). */
function toScrapeModel<T>(body: object): T {
  const model = toModel<{ actions?: object[] }>(body);
  if (Array.isArray(model.actions)) model.actions = model.actions.map((action) => toModel<object>(action));
  return model as T;
}

/**
 * Action fields are checked by their plugins under internal names, so a camelCase key sent to
 * /v1 would pass as its own internal name: refused here, as /v1 refuses any unknown field.
 */
function refuseInternalActionKeys(body: { actions?: unknown }, ctx: z.RefinementCtx, at: PropertyKey[] = []): void {
  if (!Array.isArray(body.actions)) return;
  body.actions.forEach((action, index) => {
    const keys = Object.keys(action ?? {}).filter((key) => /[A-Z]/.test(key));
    if (keys.length) ctx.addIssue({ code: 'unrecognized_keys', keys, path: [...at, 'actions', index], input: action });
  });
}

/** The body of POST /v1/scrape. */
export const v1ScrapeSchema = oncePer((request: ComposedRequest) =>
  v1Object(request.schema.shape)
    .superRefine((body, ctx) => refuseInternalActionKeys(body, ctx))
    .transform((body) => toScrapeModel<ScrapeRequest>(body)),
);

function v1ScrapeOptions(service: CrawlService) {
  return v1Object(service.fields.scrapeOptions.shape);
}

/** The body of POST /v1/crawl. */
export const v1CrawlSchema = oncePer((service: CrawlService) =>
  v1Object(service.fields.crawl)
    .extend({
      scrape_options: v1ScrapeOptions(service)
        .prefault({})
        .describe('The options of POST /v1/scrape (without url), applied to every page.'),
    })
    .superRefine((body, ctx) => refuseInternalActionKeys(body.scrape_options as { actions?: unknown }, ctx, ['scrape_options']))
    .transform(
      ({ scrape_options: options, ...crawl }): CrawlRequest => ({
        ...toModel<Omit<CrawlRequest, 'scrapeOptions'>>(crawl),
        scrapeOptions: toScrapeModel<ScrapeOptions>(options as object),
      }),
    ),
);

/** The body of POST /v1/batch: the URLs and the scrape options side by side. */
export const v1BatchSchema = oncePer((service: CrawlService) =>
  v1ScrapeOptions(service)
    .extend(v1Object(service.fields.batch).shape)
    .superRefine((body, ctx) => refuseInternalActionKeys(body, ctx))
    .transform(
      ({ urls, webhook_url: webhookUrl, ...options }): BatchRequest => ({
        urls: urls as string[],
        ...(webhookUrl ? { webhookUrl: webhookUrl as string } : {}),
        scrapeOptions: toScrapeModel<ScrapeOptions>(options),
      }),
    ),
);

/** The body of POST /v1/search (`num_results`, `no_cache`; the other names are the same). */
export const v1SearchSchema = v1Object(searchRequestFields).transform((body) => toModel<SearchRequest>(body));

/** The body of POST /v1/extract (`only_main_content`, `no_cache`, `timeout`; the JSON Schema in `schema` is user data, its keys kept). */
export const v1ExtractSchema = v1Object(extractRequestFields).transform((body) => toModel<ExtractRequest>(body));

/** The body of POST /v1/summarize. */
export const v1SummarizeSchema = v1Object(summarizeRequestFields).transform((body) => toModel<SummarizeRequest>(body));

/** The bodies of POST /v1/lead and POST /v1/lead/batch. */
export const v1LeadSchema = v1Object(leadRequestFields).transform((body) => toModel<LeadRequest>(body));
export const v1LeadBatchSchema = v1Object(leadBatchRequestFields).transform((body) => toModel<LeadBatchRequest>(body));
/** The body of POST /v1/brand. */
export const v1BrandSchema = v1Object(brandRequestFields).transform((body) => toModel<BrandRequest>(body));
