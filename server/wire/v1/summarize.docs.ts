/** The OpenAPI of POST /v1/summarize: the request from the zod schema that validates it, and the summary answer. */
import { errorBody, jsonBody, schemaRef, toJson } from '../../openapi-shapes.ts';
import { v1SummarizeSchema } from './request.ts';

export const summarizeOpenApi = {
  paths: {
    '/v1/summarize': {
      post: {
        summary: 'Summarize a page',
        description:
          'Scrapes `url` (main content by default) and summarizes it. `mode: "llm"` has the configured language ' +
          "model write it (503 without one): one call for a page that fits the model's context, else map-reduce — " +
          'each part (at most llm.maxChunks) summarized, then the part summaries into one. `mode: "extractive"` ' +
          "needs no model: the page's sentences are ranked by TextRank (a graph of the content words they share, " +
          "PageRank on it) and the best kept in page order — deterministic, the page's own words. `auto` " +
          '(default) is `llm` when a model is configured, else `extractive`; `method` in the answer says which ' +
          'ran. `formats` adds scrape formats to the answer as /v1/scrape would.',
        requestBody: { required: true, content: { 'application/json': { schema: schemaRef('SummarizeRequest') } } },
        responses: {
          200: jsonBody(schemaRef('SummarizeResponse'), "The summary and the page's metadata and requested formats"),
          400: errorBody(
            'Invalid request, e.g. `Missing required field: url`, `Invalid field length: Invalid ' +
              'option: expected one of "short"|"medium"|"long"`',
          ),
          401: errorBody('Invalid or missing API key'),
          422: errorBody(
            'The page could not be fetched or read, has no sentences to summarize, or the ' + "model's answer was invalid twice",
          ),
          502: errorBody('The language-model provider failed'),
          503: errorBody(
            '`mode: "llm"` without a configured model (`No language model is configured: …`), or the ' +
              'provider is rate limited (with `Retry-After`)',
          ),
          504: errorBody('The provider did not answer within llm.timeoutMs'),
        },
      },
    },
  },
  schemas: {
    SummarizeRequest: toJson(v1SummarizeSchema),
    SummarizeResponse: {
      allOf: [
        {
          type: 'object',
          required: ['url', 'summary', 'method', 'length'],
          properties: {
            url: { type: 'string' },
            summary: { type: 'string' },
            method: { type: 'string', enum: ['llm', 'extractive'], description: 'How the summary was made.' },
            length: { type: 'string', enum: ['short', 'medium', 'long'] },
            model: { type: 'string', description: '`llm`: the model that wrote it.' },
            provider: { type: 'string', description: '`llm`: plugin id of its provider.' },
            usage: schemaRef('LlmUsage'),
          },
        },
        { description: 'The page as /v1/scrape presents it: metadata and the requested formats.', ...schemaRef('ScrapeResult') },
      ],
    },
  },
};
