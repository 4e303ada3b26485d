/**
 * The Gemini API (generativelanguage, v1beta) as Google documents it: `POST
 * /v1beta/models/{model}:generateContent` with the key in `x-goog-api-key`, `contents` ({role:
 * user|model, parts: [{text}]}), `systemInstruction` and `generationConfig` (`maxOutputTokens`,
 * `temperature`, `responseMimeType`, and `responseJsonSchema` or `responseSchema` — a schema needs
 * `responseMimeType: "application/json"`, and only one of the two may be set). Replies carry
 * `candidates[0].content.parts[].text`, `finishReason` (`STOP`, `MAX_TOKENS` when cut off) and
 * `usageMetadata`. Errors are `{error: {code, message, status, details}}`: a bad key is a 400 with
 * reason API_KEY_INVALID, an unknown model a 404, a rate limit a 429 RESOURCE_EXHAUSTED with a
 * RetryInfo `retryDelay`. `GET /v1beta/models/{model}` describes a model.
 */
import { answerOf, isObject, tokens, type Answerer, type Conversation } from './llm-answers.ts';
import { json, startProviderServer, type ProviderServer, type ProviderServerOptions } from './search-provider.ts';

export const GEMINI_TEST_KEY = 'AIzaTestKey0123456789';

export interface GeminiServer extends ProviderServer {
  answer: Answerer;
  models: string[];
  conversations: Conversation[];
}

export const geminiError = (code: number, status: string, message: string, details: unknown[] = []) =>
  json({ error: { code, message, status, details } }, code);

/** The text parts of a Content, joined. */
const textOf = (content: unknown) =>
  isObject(content) && Array.isArray(content.parts)
    ? content.parts.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join('')
    : '';

export function startGeminiServer(options: ProviderServerOptions & { answer?: Answerer; models?: string[] } = {}): GeminiServer {
  const server = startProviderServer(options, (req, self) => {
    const state = self as GeminiServer;
    if (req.headers['x-goog-api-key'] !== GEMINI_TEST_KEY) {
      return geminiError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'API_KEY_INVALID',
          domain: 'googleapis.com',
          metadata: { service: 'generativelanguage.googleapis.com' },
        },
      ]);
    }
    const match = /^\/v1beta\/models\/([^/:]+)(:generateContent)?$/.exec(req.path);
    if (!match) return geminiError(404, 'NOT_FOUND', `Requested entity was not found: ${req.path}`);
    const model = decodeURIComponent(match[1]!);
    if (!state.models.includes(model))
      return geminiError(
        404,
        'NOT_FOUND',
        `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`,
      );
    if (req.method === 'GET' && !match[2]) {
      return json({
        name: `models/${model}`,
        version: '001',
        displayName: model,
        inputTokenLimit: 1_048_576,
        outputTokenLimit: 65_536,
        supportedGenerationMethods: ['generateContent', 'countTokens'],
      });
    }
    if (req.method !== 'POST' || !match[2]) return geminiError(404, 'NOT_FOUND', 'Method not found.');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(req.body);
    } catch {
      return geminiError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    }
    const contents = body.contents;
    if (!Array.isArray(contents) || contents.length === 0)
      return geminiError(400, 'INVALID_ARGUMENT', '* GenerateContentRequest.contents: contents is not specified');
    if (contents.some((c) => !isObject(c) || !['user', 'model'].includes(String(c.role)) || !textOf(c)))
      return geminiError(400, 'INVALID_ARGUMENT', 'Please use a valid role: user, model.');
    const config = isObject(body.generationConfig) ? body.generationConfig : {};
    const schema = config.responseJsonSchema ?? config.responseSchema;
    if (config.responseJsonSchema !== undefined && config.responseSchema !== undefined)
      return geminiError(400, 'INVALID_ARGUMENT', 'responseJsonSchema and responseSchema cannot both be set.');
    if (schema !== undefined && config.responseMimeType !== 'application/json')
      return geminiError(400, 'INVALID_ARGUMENT', 'response_mime_type must be application/json when a response schema is set.');
    if (schema !== undefined && !isObject(schema))
      return geminiError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received. Unknown name "responseJsonSchema": expected an object.');
    const system = textOf(body.systemInstruction);
    const messages = [
      ...(system ? [{ role: 'system', content: system }] : []),
      ...contents.map((c) => ({ role: c.role === 'model' ? 'assistant' : 'user', content: textOf(c) })),
    ];
    const conversation: Conversation = {
      messages,
      schema: schema as Record<string, unknown> | undefined,
      maxTokens: config.maxOutputTokens as number | undefined,
      model,
    };
    state.conversations.push(conversation);
    const answer = answerOf(state.answer(conversation));
    const prompt = tokens(messages.map((m) => m.content).join('\n'));
    const candidates = tokens(answer.content);
    return json({
      candidates: [
        { content: { parts: [{ text: answer.content }], role: 'model' }, finishReason: answer.truncated ? 'MAX_TOKENS' : 'STOP', index: 0 },
      ],
      usageMetadata: {
        promptTokenCount: prompt,
        candidatesTokenCount: candidates,
        totalTokenCount: prompt + candidates,
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
      },
      modelVersion: model,
      responseId: `resp-${state.conversations.length}`,
    });
  });
  return Object.assign(server, {
    answer: options.answer ?? (() => '{}'),
    models: options.models ?? ['gemini-2.5-flash'],
    conversations: [] as Conversation[],
  });
}

/** Quota exceeded for the minute: 429 RESOURCE_EXHAUSTED with how long to wait in RetryInfo. */
export const geminiRateLimited = (seconds: number) => () =>
  geminiError(429, 'RESOURCE_EXHAUSTED', 'You exceeded your current quota, please check your plan and billing details.', [
    {
      '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
      violations: [
        {
          quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests',
          quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier',
        },
      ],
    },
    { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${seconds}s` },
  ]);
