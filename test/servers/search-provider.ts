/**
 * The frame the provider test servers (search: searxng.ts, brave.ts, serper.ts, tavily.ts,
 * duckduckgo.ts; language models: openai.ts, ollama.ts, gemini.ts) share: a Bun server on 127.0.0.1
 * that records every request (method, path, query, headers, body), answers scripted responses first
 * when a test queued some (a documented error, say), then serves the provider's documented protocol
 * through its own handler, optionally after a delay. Results come from a function of the query, so
 * tests point them at fixture pages.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Lower-cased names. */
  headers: Record<string, string>;
  body: string;
}

/** One result as a test hands it over; each server renders it in its provider's shape. */
export interface CannedResult {
  url: string;
  title: string;
  snippet: string;
}

export type ResultsFor = (query: string) => CannedResult[];

export interface ProviderServer {
  url: string;
  requests: RecordedRequest[];
  /** Answer the next requests with these, in order; then serve normally again. */
  script(...responses: Array<Scripted>): void;
  results: ResultsFor;
  /** Added before every answer (a realistic provider latency). */
  delayMs: number;
  stop(): Promise<void>;
}

/** A scripted answer; a promise that never settles is a provider that hangs. */
export type Scripted = (request: RecordedRequest) => Response | Promise<Response>;

export interface ProviderServerOptions {
  results?: ResultsFor;
  delayMs?: number;
}

export function startProviderServer(
  options: ProviderServerOptions,
  handle: (request: RecordedRequest, server: ProviderServer) => Response | Promise<Response>,
): ProviderServer {
  const scripted: Scripted[] = [];
  const self: ProviderServer = {
    url: '',
    requests: [],
    script: (...responses) => {
      scripted.push(...responses);
    },
    results: options.results ?? (() => []),
    delayMs: options.delayMs ?? 0,
    stop: async () => {
      await server.stop(true);
    },
  };
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const recorded: RecordedRequest = {
        method: req.method,
        path: url.pathname,
        query: url.searchParams,
        headers: Object.fromEntries([...req.headers.entries()].map(([k, v]) => [k.toLowerCase(), v])),
        body: await req.text(),
      };
      self.requests.push(recorded);
      if (self.delayMs) await Bun.sleep(self.delayMs);
      const next = scripted.shift();
      return next ? next(recorded) : handle(recorded, self);
    },
  });
  self.url = `http://127.0.0.1:${server.port}`;
  return self;
}

/** The results a test hands over, `per` at a time: page `index` (0-based). */
export const pageOf = <T>(all: T[], index: number, per: number): T[] => all.slice(index * per, index * per + per);

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) => Response.json(body, { status, headers });
