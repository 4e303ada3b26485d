/**
 * `bun run cli mcp`: the MCP server on stdin/stdout for desktop agents. It boots Trawl in this
 * process (config, database, job workers so crawls and batches progress) and acts for the default
 * workspace, the local user's; logs go to stderr because stdout carries the protocol.
 */
import pino from 'pino';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { MetricsToken } from '../core/metrics.ts';
import { Tokens } from '../core/services.ts';
import { createLogger } from '../core/logger.ts';
import { DEFAULT_WORKSPACE } from '../core/storage/workspaces.ts';
import { mountApi } from '../server/app.ts';
import { bootTrawl } from '../server/boot.ts';
import { bindTools, createMcpServer } from '../server/mcp/server.ts';
import type { Caller } from '../server/route.ts';

export const MCP_USAGE = `Usage: bun run cli mcp   (the MCP server on stdio; tools act for the default workspace)`;

const LOCAL_USER: Caller = Object.freeze({ scope: 'workspace', workspace: DEFAULT_WORKSPACE, account: null });

export async function mcpMain(argv: string[]): Promise<number> {
  if (argv.length) {
    console.error(MCP_USAGE);
    return argv[0] === '--help' || argv[0] === '-h' ? 0 : 2;
  }
  const level = process.env.TRAWL_LOG_LEVEL?.trim() || 'warn';
  const trawl = await bootTrawl({ logger: createLogger(level, pino.destination(2)), overrides: { log: { level } } });
  const api = mountApi(trawl);
  if (trawl.config.role === 'all') trawl.container.resolve(Tokens.Jobs).start();
  const server = createMcpServer(api, bindTools(api), trawl.version, LOCAL_USER, { origin: `http://127.0.0.1:${trawl.config.server.port}`, metrics: trawl.container.resolve(MetricsToken) });
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  await server.connect(new StdioServerTransport());
  await closed;
  await server.close();
  await trawl.shutdown();
  return 0;
}
