/**
 * What a server serves once its route modules are mounted (server/app.ts `mountApi`): the HTTP app
 * and the MCP server (server/mcp) both run routes through it. A file of its own so the MCP server
 * need not import the app that mounts it.
 */
import type { Authenticator } from './auth.ts';
import type { RouteRunner } from './route-runner.ts';
import type { buildOpenApi } from './openapi.ts';
import type { AnyRouteModule, Route, RouteEnv } from './route.ts';

/** The route modules a server serves, each with the services it asked for. */
export type Mounted = Array<{ module: AnyRouteModule; services: Record<string, unknown> }>;

/** What a server serves: the mounted routes, their OpenAPI document and the runner that admits, meters and runs them. */
export interface MountedApi {
  routes: Route[];
  openapi: ReturnType<typeof buildOpenApi>;
  run: RouteRunner;
  auth: Authenticator;
  env: RouteEnv;
  mounted: Mounted;
}
