/**
 * MCP over Streamable HTTP at `/mcp`, stateless: every POST carries JSON-RPC messages and gets its
 * answers as JSON, acting for the caller its bearer key authenticated (server/app.ts, the same keys
 * and workspaces as the API). No session is kept, so any process behind a load balancer can answer
 * any message; a GET (a server-initiated event stream) is 405, which the protocol allows.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Metrics } from '../../core/metrics.ts';
import type { MountedApi } from '../mounted.ts';
import { errorBody } from '../openapi-shapes.ts';
import type { Caller } from '../route.ts';
import { bindTools, createMcpServer } from './server.ts';
import { mcpTools } from './tools.ts';

export type McpHttpHandler = (request: Request, caller: Caller, requestId?: string) => Promise<Response>;

export function createMcpHttpHandler(api: MountedApi, version: string, maxBodyBytes: number, metrics?: Metrics): McpHttpHandler {
  const tools = bindTools(api);
  return async (request, caller, requestId) => {
    if (request.method !== 'POST') {
      return Response.json(
        { error: `Method not allowed: ${request.method} /mcp (stateless: POST JSON-RPC messages)` },
        { status: 405, headers: { allow: 'POST' } },
      );
    }
    const server = createMcpServer(api, tools, version, () => caller, { origin: new URL(request.url).origin, requestId, metrics });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: maxBodyBytes,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request);
    } finally {
      await server.close();
    }
  };
}

/** /mcp in the OpenAPI document (JSON-RPC, not a JSON route module). */
export const mcpOpenApi = {
  paths: {
    '/mcp': {
      post: {
        summary: 'Model Context Protocol (Streamable HTTP)',
        description:
          'JSON-RPC messages of the Model Context Protocol, answered as JSON (stateless: no session, no server-sent stream; GET is 405). Tools: ' +
          `${mcpTools.map((tool) => tool.name).join(', ')} — each runs its endpoint for the key's workspace (admitted, rate-limited and charged as the ` +
          "endpoint is), with the endpoint's request schema as input schema, its answer as structured content and as markdown text, its error message as a tool error.",
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
        responses: {
          200: { description: 'JSON-RPC answers', content: { 'application/json': { schema: { type: 'object' } } } },
          202: { description: 'Notifications accepted' },
          401: errorBody('Invalid or missing API key'),
        },
      },
    },
  },
};
