/** The OpenAPI of POST /v1/extract: the request from the zod schema that validates it, and the extraction answer. */
import { errorBody, jsonBody, schemaRef, toJson } from '../../openapi-shapes.ts';
import { v1ExtractSchema } from './request.ts';

const usageSchema = {
  type: 'object',
  required: ['input_tokens', 'output_tokens'],
  description: 'Tokens the provider reported for every call of this request (retries and page parts included).',
  properties: { input_tokens: { type: 'integer' }, output_tokens: { type: 'integer' } },
};

export const extractOpenApi = {
  paths: {
    '/v1/extract': {
      post: {
        summary: 'Extract structured data from a page with a language model',
        description:
          'Scrapes `url` into its lean `llm` text and has the configured language model (`[plugins.llm.*]`: an ' +
          'OpenAI-compatible server, Ollama, Gemini, or a local GGUF model run in process) extract JSON from it. ' +
          'With `schema` the answer matches that JSON Schema (draft 2020-12, or draft-07 by `$schema`; `pattern` ' +
          'in RE2 syntax; at most llm.maxSchemaBytes); with only `prompt`, the model first lists the fields to ' +
          'extract, the schema is built from them and returned as `generated_schema` (every field required, null ' +
          'when the page lacks it). Every answer is validated against the schema; an invalid or cut-off answer is ' +
          'sent back to the model once with what was wrong, and a second one is a 422. A page longer than the ' +
          "model's context is split into parts (at most llm.maxChunks) whose answers are merged: arrays joined, " +
          "other values from the first part that has one. A provider's 429 with a short Retry-After is waited out " +
          'once (llm.maxRetryWaitSeconds); a longer one is a 503 with that Retry-After.',
        requestBody: { required: true, content: { 'application/json': { schema: schemaRef('ExtractRequest') } } },
        responses: {
          200: jsonBody(schemaRef('ExtractResponse'), 'The extracted data'),
          400: errorBody(
            'Invalid request: `Missing required field: prompt (or schema)`, `Invalid field schema: ' +
              'not a valid JSON Schema: at /properties: must be object`, `Invalid field schema: 40000 bytes, at most ' +
              '32768 (llm.maxSchemaBytes)`',
          ),
          401: errorBody('Invalid or missing API key'),
          413: errorBody('Request body too large'),
          422: errorBody(
            "The page could not be fetched or read (`Failed to fetch URL: …`), or the model's answer " +
              "did not match the schema after one retry (`The model's answer does not match the schema: at /price: " +
              'must be number (llm.openai, gpt-4o-mini; after one retry)`)',
          ),
          502: errorBody('The provider failed: `llm.openai: HTTP 500: …`, `llm.ollama: model "x" is not ' + 'available (HTTP 404 …)`'),
          503: errorBody(
            '`No language model is configured: set plugins.llm.openai.model, or …`, or the provider ' +
              'is rate limited for longer than llm.maxRetryWaitSeconds (with `Retry-After`)',
          ),
          504: errorBody('The provider did not answer within llm.timeoutMs'),
        },
      },
    },
  },
  schemas: {
    ExtractRequest: toJson(v1ExtractSchema),
    LlmUsage: usageSchema,
    ExtractResponse: {
      type: 'object',
      required: ['url', 'data', 'model', 'provider', 'usage'],
      properties: {
        url: { type: 'string', description: 'The page (normalised).' },
        data: { description: 'The extracted data; it matches the schema.' },
        generated_schema: { type: 'object', description: 'The JSON Schema made from `prompt`, when the ' + 'request had no `schema`.' },
        model: { type: 'string', description: 'The model that answered, as its provider names it.' },
        provider: { type: 'string', description: 'Plugin id of the provider, e.g. `llm.ollama`.' },
        usage: schemaRef('LlmUsage'),
        warnings: { type: 'array', items: { type: 'string' }, description: 'E.g. a page cut to llm.maxChunks parts.' },
      },
    },
  },
};
