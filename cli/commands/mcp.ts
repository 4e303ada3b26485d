/**
 * `bun run cli mcp`: the MCP server on stdin/stdout for desktop agents. It boots Trawl in this
 * process (config, database, job workers so crawls and batches progress) and acts for the default
 * workspace, the local user's; logs go to stderr because stdout carries the protocol.
 */
import { Command } from 'commander';
import pino from 'pino';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { MetricsToken } from '../../core/metrics.ts';
import { Tokens } from '../../core/services.ts';
import { createLogger } from '../../core/logger.ts';
import { mountApi } from '../../server/app.ts';
import { bootTrawl } from '../../server/boot.ts';
import { bindTools, createMcpServer } from '../../server/mcp/server.ts';
import { LOCAL_USER } from '../client.ts';

async function serveMcp(): Promise<void> {
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
}

export const mcpCommand = () =>
  new Command('mcp')
    .description('The MCP server on stdio, for desktop agents; its tools act for the default workspace')
    .addHelpText('after', '\nExample (an MCP client\'s command):\n  bun --cwd /path/to/trawl run cli mcp')
    .action(() => serveMcp());
