/**
 * The route-module API: a module (server/routes/…) declares the services it needs as tokens, its
 * routes (method, path, input, handler) and their OpenAPI part. The schemas a route declares and
 * the prose of its OpenAPI live with its wire format (server/wire/<format>/<feature>.ts and
 * .docs.ts), so route files hold handlers. The explicit list in server/routes/index.ts is what
 * server/app.ts mounts and server/openapi.ts documents; the app resolves each module's tokens once
 * and hands the services in, so no route touches the container.
 */
import type { InjectionToken } from 'tsyringe';
import type { z } from 'zod';
import type { TrawlConfig } from '../core/config-schema.ts';
import type { Units } from '../core/metering.ts';
import type { PluginRegistry } from '../core/registry.ts';
import type { Account, KeyRole } from '../core/storage/workspaces.ts';
import type { ErrorPresenter } from './errors.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** Who is calling: the workspace, and in cloud mode its account (plan, status, balance, limit). */
export interface Caller {
  /** `public`: /health, /docs, /openapi.json; `admin`: the admin API's key; `workspace`: an API key (or none, self-hosted without one). */
  scope: 'workspace' | 'public' | 'admin';
  workspace: string;
  account: Account | null;
  /**
   * What the key may do (server/routes/v1/account.ts): `member` keys call the API only. `admin` also
   * for the operator, the local CLI and a self-hosted server without a key; null on public routes.
   */
  role: KeyRole | null;
  /** The id of the key the caller sent (absent without one). */
  keyId?: string;
  /** Cloud mode: sha256 of the caller's key; the charge checks it again (a key revoked a moment ago does nothing). */
  keyHash?: string;
  /** Cloud mode: the account was read for this request, not remembered from an earlier one. */
  fresh?: boolean;
}

/** What a metered call tells its usage row besides what its declaration knows. */
export interface UsageNote {
  url?: string;
  /** The stored result the call produced. */
  resultId?: string;
  /** The caller asked that no copy be kept (`store_in_cache: false`): the answer is not stored either. */
  noCopy?: boolean;
  /** The asynchronous run it started (a crawl or batch id): its units are charged to the same row. */
  runId?: string;
  /** Units of the up-front charge the call did not deliver (search results that could not be scraped): given back. */
  undelivered?: Units;
}

/** What a handler gets for one request, after authentication. */
export interface RouteRequest<B = unknown, Q = Record<string, unknown>> {
  request: Request;
  params: Record<string, string>;
  workspace: string;
  caller: Caller;
  /** The validated body, when the route declares `input`. */
  body: B;
  /** The validated query string, as the route's `query` declares it (server/query.ts). */
  query: Q;
  /** Filled in by metered handlers; ignored elsewhere. */
  usage: UsageNote;
  /** Bun's server, for handlers that tune their connection (event streams switch the idle timeout off). */
  server: { timeout?(request: Request, seconds: number): void } | null;
}

/**
 * A route's price in cloud mode, declared next to it: server/route-runner.ts charges it before the
 * handler runs (402 when the workspace cannot pay), refunds it when the handler fails, writes the
 * usage row and adds the credit headers. Self-hosted mode ignores it.
 */
export interface RouteMeter<B> {
  /** The usage log's name for the call (`scrape`, `crawl`, …). */
  endpoint: string;
  /** Units one call consumes, from its validated body; charged up front. */
  units?(body: B): Units;
  /** Units the workspace must be able to pay without being charged now: work charged as it happens (a crawl's pages). */
  requires?(body: B): Units;
  /** The URL the usage row names. */
  url?(body: B): string | undefined;
  /** What the kept answer is found by at GET /v1/cache/lookup (`url=`) when it is not the URL: a search's query. */
  key?(body: B): string | undefined;
}

/** A route's query parameters: a zod object, whose keys are the parameters it accepts. */
export type QuerySchema<Q> = z.ZodType<Q> & { shape: Record<string, unknown> };

// Route lists mix bodies of every type; each route is typed where it is written.
export interface Route<B = any, Q = any> {
  method: Method;
  /** Elysia path syntax: `/v1/crawl/:id`. */
  path: string;
  /**
   * The JSON body's schema. The app never lets the framework read a body: server/route-runner.ts
   * reads it (server/body.ts, capped at `server.maxBodyBytes`) after authentication, so a bad key is
   * 401 before a bad body is 400, and hands it in as `body`. A route without `input` reads no body.
   */
  input?: z.ZodType<B>;
  /** No body at all reads as `{}` (every field of `input` is optional). */
  emptyBody?: boolean;
  /**
   * The query parameters the route accepts, validated like a body and handed in as `query`. Under
   * /v1 and /admin a parameter the route does not declare is a 400 (`Unknown query parameter: foo`),
   * so a route without `query` accepts none; lists declare `pagedQuery(…)` (server/pagination.ts).
   */
  query?: QuerySchema<Q>;
  meter?: RouteMeter<B>;
  /**
   * A paid feature, named for the answer: free and lapsed workspaces get 403 `<paid> requires a
   * paid plan` (cloud mode).
   */
  paid?: string;
  /**
   * Starts work that its job charges later (a watch's checks) rather than the call itself: a lapsed
   * workspace gets 403 `This workspace's plan has lapsed: …` before the handler runs, as a metered
   * call does (cloud mode).
   */
  billable?: true;
  /**
   * For admin keys only, named for the answer: a `member` key gets 403 `This key's role is member:
   * <admin> needs an admin key of the workspace`, before its body is read (server/route-runner.ts).
   */
  admin?: string;
  /**
   * Served without an API key: the handler authenticates the request itself (the watch feed's
   * token in the query, for readers that cannot send headers) and runs as the public caller.
   */
  public?: true;
  handle(input: RouteRequest<B, Q>): unknown;
}

/** A route with its body and query types checked against its declarations. */
export const route = <B, Q = Record<string, unknown>>(definition: Route<B, Q>): Route<B, Q> => definition;

/** One open WebSocket as a socket route sees it: text out, nothing in. */
export interface RouteSocket {
  /** Resolves once the message is handed to the connection (waits while the client reads slowly). */
  send(text: string): Promise<void>;
  close(code?: number, reason?: string): void;
  /** Aborts when the connection closes, from either side. */
  signal: AbortSignal;
}

/**
 * A WebSocket on a path (which may also be a GET route: an upgrade request goes here). `stream`
 * runs for the connection's life and the socket is closed when it returns. The caller is
 * authenticated like any request (the API key may come as the WebSocket sub-protocol).
 */
export interface SocketRoute {
  path: string;
  stream(socket: RouteSocket, input: { params: Record<string, string>; workspace: string; caller: Caller }): Promise<void>;
}

/** A module's part of the OpenAPI document. */
export interface OpenApiPart {
  /** Tag groups of its own (another wire format); operations without a tag are Trawl's API. */
  tags?: Array<{ name: string; description: string }>;
  paths?: Record<string, unknown>;
  schemas?: Record<string, unknown>;
  webhooks?: Record<string, unknown>;
}

/** What every module may read besides its services. */
export interface RouteEnv {
  config: Readonly<TrawlConfig>;
  version: string;
  /** Plugin metadata (the plugin list, capability names); core, read-only. */
  registry: PluginRegistry;
}

type Needs = Record<string, InjectionToken<any>>;
export type Provided<N extends Needs> = { [K in keyof N]: N[K] extends InjectionToken<infer T> ? T : never };

export interface RouteModule<N extends Needs = Needs> {
  name: string;
  /**
   * A wire format with its own error envelope: every answer under `prefix` that is an error (bad
   * key, unknown path, anything the handlers throw) is shown by `present`.
   */
  errors?: { prefix: string; present: ErrorPresenter };
  /** Whether this server serves the module (cloud-only endpoints, the admin API); default yes. */
  mounted?(env: RouteEnv): boolean;
  /** The services the handlers use, by the name they are handed in under. */
  needs: N;
  routes(services: Provided<N>, env: RouteEnv): Route[];
  /** WebSocket routes, bounded by `server.maxWebSockets` (server/sockets.ts). */
  sockets?(services: Provided<N>, env: RouteEnv): SocketRoute[];
  openapi?(services: Provided<N>, env: RouteEnv): OpenApiPart;
}

// The services' types matter inside a module only; lists of modules erase them.
export type AnyRouteModule = RouteModule<any>;

export function defineRoutes<N extends Needs>(module: RouteModule<N>): RouteModule<N> {
  return Object.freeze(module);
}

/** Resolves a module's tokens once; the app hands the result to both `routes` and `openapi`. */
export function provide<N extends Needs>(module: RouteModule<N>, resolve: <T>(token: InjectionToken<T>) => T): Provided<N> {
  return Object.fromEntries(Object.entries(module.needs).map(([name, token]) => [name, resolve(token)])) as Provided<N>;
}
