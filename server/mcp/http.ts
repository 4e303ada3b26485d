/**
 * MCP over Streamable HTTP at `/mcp`, stateless: every POST carries JSON-RPC messages and gets its
 * answers as JSON, acting for the caller its bearer key authenticated (server/app.ts, the same keys
 * and workspaces as the API). No session is kept, so any process behind a load balancer can answer
 * any message; a GET (a server-initiated event stream) is 405, which the protocol allows.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Metrics } from '../../core/metrics.ts';
import type { MountedApi } from '../app.ts';
import type { Caller } from '../route.ts';
import { bindTools, createMcpServer } from './server.ts';

export type McpHttpHandler = (request: Request, caller: Caller, headers?: Record<string, string>) => Promise<Response>;

export function createMcpHttpHandler(api: MountedApi, version: string, maxBodyBytes: number, metrics?: Metrics): McpHttpHandler {
  const tools = bindTools(api);
  return async (request, caller, headers) => {
    if (request.method !== 'POST') {
      return Response.json({ error: `Method not allowed: ${request.method} /mcp (stateless: POST JSON-RPC messages)` }, { status: 405, headers: { allow: 'POST' } });
    }
    const server = createMcpServer(api, tools, version, caller, { origin: new URL(request.url).origin, headers, metrics });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize: maxBodyBytes });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  };
}
