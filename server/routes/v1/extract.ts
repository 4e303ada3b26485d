/**
 * POST /v1/extract: a page's content as JSON matching a JSON Schema — the request's, or one the
 * configured language model generates from the prompt (core/llm/extract). Cache use of the
 * page's scrape is in `X-Trawl-Cache`, the time of the scrape and of the model in `Server-Timing`.
 */
import type { z } from 'zod';
import { LlmTokens } from '../../../core/llm/tokens.ts';
import { defineRoutes, route } from '../../route.ts';
import { scrapeHeaders } from '../../timing.ts';
import { v1Field } from '../../wire/v1/names.ts';
import { presentExtract } from '../../wire/v1/present.ts';
import { v1ExtractSchema } from '../../wire/v1/request.ts';
import { extractOpenApi } from '../../wire/v1/extract.docs.ts';

export const extractModule = defineRoutes({
  name: 'extract',
  needs: { extract: LlmTokens.Extract },
  routes: ({ extract }) => [
    route<z.output<typeof v1ExtractSchema>>({
      method: 'POST',
      path: '/v1/extract',
      input: v1ExtractSchema,
      meter: { endpoint: 'extract', units: () => ({ extract: 1 }), url: (body) => body.url },
      async handle({ request, workspace, body }) {
        const outcome = await extract.extract(body, workspace, request.signal, v1Field);
        return Response.json(presentExtract(outcome), { headers: scrapeHeaders(outcome.cached, outcome.timings) });
      },
    }),
  ],
  openapi: () => extractOpenApi,
});
