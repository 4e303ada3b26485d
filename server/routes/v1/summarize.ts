/**
 * POST /v1/summarize: a page's summary, written by the configured language model or made of the
 * page's most central sentences without one (core/llm/summarize), beside the scrape formats
 * the request asks for. Cache use of the page's scrape is in `X-Trawl-Cache`, the time of the
 * scrape and of the summary (`llm` or `extractive`) in `Server-Timing`.
 */
import type { z } from 'zod';
import { LlmTokens } from '../../../core/llm/tokens.ts';
import { defineRoutes, route } from '../../route.ts';
import { scrapeHeaders } from '../../timing.ts';
import { v1Field } from '../../wire/v1/names.ts';
import { presentSummarize } from '../../wire/v1/present.ts';
import { v1SummarizeSchema } from '../../wire/v1/request.ts';
import { summarizeOpenApi } from '../../wire/v1/summarize.docs.ts';

export const summarizeModule = defineRoutes({
  name: 'summarize',
  needs: { summarize: LlmTokens.Summarize },
  routes: ({ summarize }) => [
    route<z.output<typeof v1SummarizeSchema>>({
      method: 'POST',
      path: '/v1/summarize',
      input: v1SummarizeSchema,
      meter: { endpoint: 'summarize', units: () => ({ summarize: 1 }), url: (body) => body.url },
      async handle({ request, workspace, body }) {
        const outcome = await summarize.summarize(body, workspace, request.signal, v1Field);
        return Response.json(presentSummarize(outcome), { headers: scrapeHeaders(outcome.cached, outcome.timings) });
      },
    }),
  ],
  openapi: () => summarizeOpenApi,
});
