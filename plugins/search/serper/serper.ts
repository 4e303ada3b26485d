/**
 * Serper (Google results): `POST <baseUrl>/search` with the key in `X-API-KEY` and a JSON body
 * `{q, num, gl, hl}` → `{searchParameters, organic: [{title, link, snippet, position}], …}`.
 * Serper refuses an unknown key with 403 `{message: "Unauthorized.", statusCode: 403}` and a spent
 * balance with 400 "Not enough credits". One request returns up to `num` results (Serper takes up
 * to 100), so no paging. Enabled by setting `apiKey`.
 */
import { definePlugin, Tokens } from '../../../core/kit.ts';
import { callProvider, detail, errorJson, jsonOf, plainText, providerError, statusError } from '../shared/http.ts';
import { joinUrl, keyedProviderOptions, ranked, trackedProvider } from '../shared/provider.ts';

interface SerperAnswer {
  organic?: Array<{ link?: unknown; title?: unknown; snippet?: unknown; position?: unknown }>;
}

export const serperSearch = definePlugin({
  kind: 'search',
  name: 'serper',
  description: 'Serper (Google search results API); enabled by setting `apiKey`.',
  enabledBy: ['apiKey'],
  options: keyedProviderOptions('https://google.serper.dev'),
  setup(options, ctx) {
    const http = ctx.resolve(Tokens.Http);
    const endpoint = joinUrl(options.baseUrl, '/search');
    return trackedProvider(endpoint, async (query) => {
      const body: Record<string, unknown> = { q: query.query, num: query.limit };
      if (query.country) body.gl = query.country;
      if (query.language) body.hl = query.language;
      // The registry enables this plugin only with `apiKey` set.
      const response = await callProvider(http, endpoint, {
        json: body,
        headers: { 'x-api-key': options.apiKey! },
        timeoutMs: options.timeoutMs,
        signal: query.signal,
      });
      if (response.status >= 400) throw statusError(response, detail(errorJson(response)?.message), { keyed: true });
      const answer = jsonOf(response) as SerperAnswer;
      if (!answer || !Array.isArray(answer.organic)) {
        // Serper leaves `organic` out when Google found nothing; anything else without it is not an answer.
        if (answer && typeof answer === 'object' && 'searchParameters' in answer) return { hits: [] };
        throw providerError('answered JSON without an `organic` list');
      }
      const hits = answer.organic
        .map((r, index) => ({
          url: typeof r.link === 'string' ? r.link : '',
          title: plainText(r.title, 500),
          description: plainText(r.snippet),
          rank: typeof r.position === 'number' ? r.position : index + 1,
        }))
        .sort((a, b) => a.rank - b.rank)
        .map(({ rank: _rank, ...hit }) => hit);
      return { hits: ranked(hits) };
    });
  },
});
