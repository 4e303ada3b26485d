/**
 * The Model Context Protocol server over the mounted API: each tool (server/mcp/tools.ts) runs its
 * route in process through the route runner, so a tool call is validated, rate-limited, charged
 * (cloud mode) and answered exactly as the endpoint is, for the caller the transport authenticated.
 * Input schemas are the routes' zod schemas as JSON Schema, complete. A call answers the endpoint's
 * JSON as structured content and a markdown reading of it as text. Tools declare no output schema:
 * the answers' schemas, inlined into every tool, made `tools/list` ~80 KB of an agent's context
 * for what the model reads as the markdown anyway; /openapi.json documents them. The SDK's
 * low-level `Server` is used because the tools carry JSON Schemas of their own and must see the
 * raw arguments: the high-level one would validate them with zod first and answer its own
 * messages instead of the API's.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { currentRequestId, withRequestId } from '../../core/logger.ts';
import type { Metrics } from '../../core/metrics.ts';
import { describeZodError } from '../../core/validation.ts';
import type { MountedApi } from '../mounted.ts';
import { toJson } from '../openapi-shapes.ts';
import type { Caller, Route } from '../route.ts';
import { mcpTools, type McpTool } from './tools.ts';

interface BoundTool {
  tool: McpTool;
  route: Route;
  definition: Tool;
}

type Json = Record<string, any>;

/** The tools whose routes this server serves, with their MCP definitions. */
export function bindTools(api: MountedApi, tools: readonly McpTool[] = mcpTools): BoundTool[] {
  const byKey = new Map(api.routes.map((route) => [`${route.method} ${route.path}`, route]));
  return tools.flatMap((tool) => {
    const route = byKey.get(`${tool.method} ${tool.path}`);
    const input = tool.params ?? tool.body?.(api.env) ?? route?.input;
    if (!route || !input) return [];
    const definition: Tool = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: { ...toJson(input), type: 'object' },
    };
    return [{ tool, route, definition }];
  });
}

const toolError = (message: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text: message }] });

/** The route's request: the arguments as its JSON body, or as its path and query parameters. */
function routeRequest(
  bound: BoundTool,
  args: Json,
  origin: string,
  signal: AbortSignal,
  headers: Record<string, string>,
): { request: Request; params: Record<string, string> } {
  const { tool, route } = bound;
  if (!tool.params) {
    const request = new Request(new URL(route.path, origin), {
      method: route.method,
      body: JSON.stringify(args),
      headers: { ...headers, 'content-type': 'application/json' },
      signal,
    });
    return { request, params: {} };
  }
  const params: Record<string, string> = {};
  const query = new URLSearchParams();
  const path = route.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    params[name] = String(args[name]);
    return encodeURIComponent(params[name]!);
  });
  for (const [name, value] of Object.entries(args)) if (!(name in params) && value !== undefined) query.set(name, String(value));
  const url = new URL(path, origin);
  url.search = query.toString();
  return { request: new Request(url, { method: route.method, headers, signal }), params };
}

async function callTool(
  api: MountedApi,
  bound: BoundTool,
  who: CallerSource,
  rawArgs: unknown,
  context: CallContext,
  signal: AbortSignal,
): Promise<CallToolResult> {
  const args = (rawArgs ?? {}) as Json;
  let caller: Caller;
  try {
    caller = await who();
  } catch (err) {
    return toolError(err instanceof Error ? err.message : String(err));
  }
  if (bound.tool.params) {
    const parsed = bound.tool.params.safeParse(args);
    if (!parsed.success) return toolError(describeZodError(parsed.error, args));
  }
  const requestId = currentRequestId();
  const { request, params } = routeRequest(bound, args, context.origin, signal, requestId ? { 'x-request-id': requestId } : {});
  const response = await api.run(bound.route, { request, params, server: null }, caller);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) return toolError((body as Json | undefined)?.error ?? `HTTP ${response.status}`);
  const answer = (body ?? {}) as Json;
  return {
    content: [{ type: 'text', text: bound.tool.markdown(answer) }],
    ...(body && typeof body === 'object' && !Array.isArray(body) ? { structuredContent: answer } : {}),
  };
}

export interface CallContext {
  /** The origin the routes' requests are addressed to (their `next` links and the like are relative to it). */
  origin: string;
  /** The HTTP request carrying the calls; without one (stdio) each call gets an id of its own. */
  requestId?: string;
  metrics?: Metrics;
}

/**
 * Who a call acts for, asked at each call: an HTTP request's authenticated key, or on stdio the
 * key given at start looked up again (a revoked key or a changed plan holds for a long session).
 */
export type CallerSource = () => Caller | Promise<Caller>;

/** One MCP server acting for one caller (an HTTP request's key, or the stdio session's). */
export function createMcpServer(api: MountedApi, tools: BoundTool[], version: string, caller: CallerSource, context: CallContext): Server {
  const server = new Server({ name: 'trawl', title: 'Trawl', version }, { capabilities: { tools: {} } });
  const byName = new Map(tools.map((bound) => [bound.tool.name, bound]));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map((bound) => bound.definition) }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const bound = byName.get(request.params.name);
    if (!bound) return toolError(`Unknown tool: ${request.params.name}`);
    // Over HTTP the call is part of its request; on stdio each call is a request of its own.
    const requestId = context.requestId ?? crypto.randomUUID();
    return withRequestId(requestId, () => callTool(api, bound, caller, request.params.arguments, context, extra.signal)).then((result) => {
      context.metrics?.mcpCalls.inc({ tool: bound.tool.name, outcome: result.isError ? 'error' : 'ok' });
      return result;
    });
  });
  return server;
}
