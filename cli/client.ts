/**
 * How every CLI command reaches Trawl: the /v1 API, either of a running server (`--api URL` or
 * TRAWL_API_URL, with `--api-key`/TRAWL_API_KEY) or of an in-process one, booted from the same
 * configuration as `bun start` and acting for the default workspace like `bun run cli mcp`. In
 * process, requests run through the same route runner as HTTP (validation, answers, errors), so
 * both modes speak one request and answer shape and the CLI holds no second copy of any feature.
 */
import pino from 'pino';
import { createLogger } from '../core/logger.ts';
import { Tokens } from '../core/tokens.ts';
import { DEFAULT_WORKSPACE } from '../core/storage/workspaces.ts';
import { attributeConfigError } from '../core/config-sources.ts';
import type { Trawl } from '../core/container.ts';
import { mountApi } from '../server/app.ts';
import type { MountedApi } from '../server/mounted.ts';
import { bootTrawl } from '../server/boot.ts';
import type { Caller, Route } from '../server/route.ts';
import { CliError, namedByFlags, type FlagNames } from './errors.ts';

/** The local user of an in-process Trawl: the default workspace (self-hosted mode's only one). */
export const LOCAL_USER: Caller = Object.freeze({ scope: 'workspace', workspace: DEFAULT_WORKSPACE, account: null, role: 'admin' });

const ORIGIN = 'http://trawl.local';

export interface ApiOptions {
  /** A running server's base URL; absent: in process. */
  api?: string;
  apiKey?: string;
  /** In process: run the job workers too (crawls, batches, lead batches and watch checks are jobs). */
  jobs?: boolean;
}

export interface Api {
  /** The answer's JSON; a refusal throws a CliError with the answer's message, fields named by `flags`. */
  call<T = any>(method: string, path: string, body?: unknown, flags?: FlagNames): Promise<T>;
  /** Where the work runs, for messages. */
  readonly where: string;
  close(): Promise<void>;
}

type Send = (method: string, path: string, body: unknown) => Promise<Response>;

function client(send: Send, where: string, close: () => Promise<void>): Api {
  return {
    where,
    close,
    async call(method, path, body, flags = {}) {
      const response = await send(method, path, body);
      const text = await response.text();
      let answer: any;
      try {
        answer = text ? JSON.parse(text) : {};
      } catch {
        answer = { error: text.slice(0, 200) };
      }
      if (response.ok) return answer;
      const message = typeof answer?.error === 'string' ? answer.error : `HTTP ${response.status}`;
      // A refused request is the caller's to fix (exit 2); anything else is the work failing (exit 1).
      throw new CliError(namedByFlags(message, flags), response.status === 400 ? 2 : 1);
    },
  };
}

function remote(base: string, key: string | undefined): Api {
  let origin: URL;
  try {
    origin = new URL(base);
  } catch {
    throw new CliError(`--api (TRAWL_API_URL): not a URL: ${base}`, 2);
  }
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) };
  const send: Send = async (method, path, body) => {
    try {
      return await fetch(new URL(path, origin), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (err) {
      throw new CliError(`Cannot reach the Trawl server at ${origin.origin}: ${(err as Error).message}`, 1);
    }
  };
  return client(send, origin.origin, async () => {});
}

/** The route a method and path name, with its path parameters; fixed segments win over parameters. */
export function matchRoute(
  routes: readonly Route[],
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | null {
  const segments = path.split('/');
  let best: { route: Route; params: Record<string, string>; score: number } | null = null;
  for (const route of routes) {
    const pattern = route.path.split('/');
    if (route.method !== method || pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const fits = pattern.every((part, i) =>
      part.startsWith(':') ? (params[part.slice(1)] = decodeURIComponent(segments[i]!)) !== undefined : part === segments[i],
    );
    const score = Object.keys(params).length;
    if (fits && (!best || score < best.score)) best = { route, params, score };
  }
  return best;
}

async function inProcess(jobs: boolean): Promise<Api> {
  const level = process.env.TRAWL_LOG_LEVEL?.trim() || 'warn';
  // Logs go to stderr: stdout is the command's answer.
  const trawl: Trawl = await bootTrawl({
    logger: createLogger(level, pino.destination({ fd: 2, sync: true })),
    overrides: { log: { level } },
  });
  let api: MountedApi;
  try {
    api = mountApi(trawl);
  } catch (err) {
    await trawl.shutdown();
    throw attributeConfigError(err, trawl.config);
  }
  if (jobs && trawl.config.role === 'all') trawl.container.resolve(Tokens.Jobs).start();
  const send: Send = async (method, path, body) => {
    const url = new URL(path, ORIGIN);
    const matched = matchRoute(api.routes, method, url.pathname);
    if (!matched) return Response.json({ error: `Not found: ${method} ${url.pathname}` }, { status: 404 });
    const request = new Request(url, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return api.run(matched.route, { request, params: matched.params, server: null }, LOCAL_USER);
  };
  return client(send, 'in process', () => trawl.shutdown());
}

/** The API the options point at: a running server, or Trawl booted in this process. */
export async function openApi(options: ApiOptions): Promise<Api> {
  const base = options.api?.trim();
  return base ? remote(base, options.apiKey?.trim() || undefined) : inProcess(options.jobs ?? false);
}
