/**
 * A SearXNG instance as its documented search API behaves (docs.searxng.org, dev/search_api):
 * `GET /search` (or `/`) with `q` (required), `format`, `pageno` (default 1), `language`. `format=json`
 * is answered only when the instance lists `json` in search.formats, otherwise 403 Forbidden — the
 * shipped default, switched by `jsonEnabled`. JSON answers carry `query`, `number_of_results`,
 * `results` (url, title, content, engine, engines, positions, score, category), `answers`,
 * `corrections`, `infoboxes`, `suggestions` and `unresponsive_engines` ([engine, reason] pairs,
 * set by `failingEngines`: with them the instance answers no results). Ten results a page.
 */
import { json, pageOf, startProviderServer, type ProviderServer, type ProviderServerOptions } from './search-provider.ts';

export interface SearxngServer extends ProviderServer {
  jsonEnabled: boolean;
  /** Engines that failed, e.g. [['google', 'Suspended: CAPTCHA']]; while set, no results are found. */
  failingEngines: Array<[string, string]>;
}

const PER_PAGE = 10;

export function startSearxngServer(options: ProviderServerOptions & { jsonEnabled?: boolean } = {}): SearxngServer {
  const server = startProviderServer(options, (req, self) => {
    const state = self as SearxngServer;
    if (req.method !== 'GET' || (req.path !== '/search' && req.path !== '/')) return new Response('Not Found', { status: 404 });
    const q = req.query.get('q');
    if (!q) return new Response('Bad Request', { status: 400 });
    if (req.query.get('format') !== 'json')
      return new Response('<!DOCTYPE html><html><body>results page</body></html>', {
        headers: { 'content-type': 'text/html; charset=utf-8' },
      });
    if (!state.jsonEnabled)
      return new Response('<!doctype html><title>403 Forbidden</title><h1>Forbidden</h1>', {
        status: 403,
        headers: { 'content-type': 'text/html; charset=utf-8' },
      });
    const pageno = Number(req.query.get('pageno') ?? '1');
    if (!Number.isInteger(pageno) || pageno < 1) return new Response('Bad Request', { status: 400 });
    const all = state.failingEngines.length ? [] : self.results(q);
    const results = pageOf(all, pageno - 1, PER_PAGE).map((r, i) => ({
      url: r.url,
      title: r.title,
      content: r.snippet,
      engine: 'duckduckgo',
      engines: ['duckduckgo', 'brave'],
      positions: [(pageno - 1) * PER_PAGE + i + 1],
      score: 2 / ((pageno - 1) * PER_PAGE + i + 1),
      category: 'general',
      parsed_url: [new URL(r.url).protocol.slice(0, -1), new URL(r.url).host, new URL(r.url).pathname, '', '', ''],
      template: 'default.html',
    }));
    return json({
      query: q,
      number_of_results: 0,
      results,
      answers: [],
      corrections: [],
      infoboxes: [],
      suggestions: [],
      unresponsive_engines: state.failingEngines,
    });
  });
  return Object.assign(server, { jsonEnabled: options.jsonEnabled ?? true, failingEngines: [] as Array<[string, string]> });
}

/** The limiter's answer to a client it thinks is a bot. */
export const searxngTooManyRequests = () => new Response('Too Many Requests', { status: 429, headers: { 'content-type': 'text/plain' } });
