/**
 * The route-module API: a module (server/routes/…) declares the services it needs as tokens, its
 * routes (method, path, body mode, handler) and their OpenAPI next to the handlers. The explicit
 * list in server/routes/index.ts is what server/app.ts mounts and server/openapi.ts documents; the
 * app resolves each module's tokens once and hands the services in, so no route touches the container.
 */
import type { InjectionToken } from 'tsyringe';
import type { TrawlConfig } from '../core/config-schema.ts';
import type { PluginRegistry } from '../core/registry.ts';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** What a handler gets for one request, after authentication. */
export interface RouteRequest {
  request: Request;
  params: Record<string, string>;
  workspace: string;
  /** Bun's server, for handlers that tune their connection (event streams switch the idle timeout off). */
  server: { timeout?(request: Request, seconds: number): void } | null;
}

export interface Route {
  method: Method;
  /** Elysia path syntax: `/v1/crawl/:id`. */
  path: string;
  /**
   * `manual`: the route takes a body and its handler reads it (server/body.ts, capped at
   * `server.maxBodyBytes`), after authentication, so a bad key is 401 before a bad body is 400. The
   * app never lets the framework read a body, so this marks which routes take one.
   */
  body?: 'manual';
  handle(input: RouteRequest): unknown;
}

/** A module's part of the OpenAPI document. */
export interface OpenApiPart {
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
  /** The services the handlers use, by the name they are handed in under. */
  needs: N;
  routes(services: Provided<N>, env: RouteEnv): Route[];
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
