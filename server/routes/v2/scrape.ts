/**
 * POST /v2/scrape: one URL, Firecrawl's v2 request and Document shapes over the same Scraper as
 * /v1/scrape (server/wire/v2 parses and presents; nothing passes through /v1).
 */
import { CoreTokens, Tokens } from '../../../core/tokens.ts';
import { applyV2Proxy } from '../../wire/v2/proxy.ts';
import { defineRoutes, route } from '../../route.ts';
import { scrapeHeaders } from '../../timing.ts';
import { presentDocument } from '../../wire/v2/present.ts';
import { v2ScrapeSchema, type V2Scrape } from '../../wire/v2/request.ts';
import { v2FieldName } from '../../wire/v2/scrape-options.ts';
import { v2ScrapeOpenApi } from '../../wire/v2/openapi.docs.ts';
import { V2_ERRORS, warningOf } from './shared.ts';

export const v2ScrapeModule = defineRoutes({
  name: 'v2-scrape',
  errors: V2_ERRORS,
  needs: { scraper: CoreTokens.Scraper, config: Tokens.Config },
  routes: ({ scraper, config }) => [
    route<V2Scrape>({
      method: 'POST',
      path: '/v2/scrape',
      input: v2ScrapeSchema(scraper.request),
      meter: {
        endpoint: 'scrape',
        units: ({ request }) => ({ scrape: 1, ...scraper.formatUnits(request.formats) }),
        url: ({ request }) => request.url,
      },
      async handle({ request, workspace, body, usage }) {
        applyV2Proxy(config, body.proxy, body.request);
        const outcome = await scraper.scrape(body.request, workspace, request.signal, v2FieldName);
        if (outcome.resultId) usage.resultId = outcome.resultId;
        if (body.request.storeInCache === false) usage.noCopy = true;
        const data = presentDocument(
          outcome.result,
          { formats: body.shown, actions: body.request.actions },
          body.sourceUrl,
          outcome.cached ? 'hit' : 'miss',
        );
        return Response.json(
          { success: true, data, ...warningOf(body.warnings) },
          { headers: scrapeHeaders(outcome.cached, outcome.timings) },
        );
      },
    }),
  ],
  openapi: ({ scraper }) => v2ScrapeOpenApi(scraper.request),
});
