/**
 * `bun run cli mcp`: the MCP server on stdin/stdout for desktop agents. It boots Trawl in this
 * process (config, database, job workers so crawls and batches progress) and acts for one
 * workspace: the one of the key given with `--api-key` or TRAWL_API_KEY, looked up as the API
 * looks up a bearer key (cloud mode needs one), else the default workspace, the local user's.
 * Logs go to stderr because stdout carries the protocol.
 */
import { Command } from 'commander';
import pino from 'pino';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { MetricsToken } from '../../core/metrics.ts';
import { Tokens } from '../../core/tokens.ts';
import { createLogger } from '../../core/logger.ts';
import { mountApi } from '../../server/app.ts';
import { bootTrawl } from '../../server/boot.ts';
import { bindTools, createMcpServer, type CallerSource } from '../../server/mcp/server.ts';
import { LOCAL_USER } from '../client.ts';
import { CliError } from '../errors.ts';

async function serveMcp(options: { apiKey?: string }): Promise<void> {
  const key = options.apiKey?.trim() || process.env.TRAWL_API_KEY?.trim() || undefined;
  // The key is this session's credential, not the server's setting: booting with TRAWL_API_KEY
  // would make it the default workspace's only key (core/container.ts), whoever's key it is.
  const { TRAWL_API_KEY: _credential, ...env } = process.env;
  const level = process.env.TRAWL_LOG_LEVEL?.trim() || 'warn';
  const trawl = await bootTrawl({ env, logger: createLogger(level, pino.destination(2)), overrides: { log: { level } } });
  const api = mountApi(trawl);
  const caller: CallerSource = key ? () => api.auth.authenticate(`Bearer ${key}`) : () => LOCAL_USER;
  const refusal =
    !key && trawl.config.mode === 'cloud'
      ? 'Cloud mode: the MCP server acts for one workspace; pass --api-key KEY or set TRAWL_API_KEY'
      : await Promise.resolve()
          .then(caller)
          .then(
            () => null,
            (err: Error) => `${err.message} (--api-key / TRAWL_API_KEY)`,
          );
  if (refusal) {
    await trawl.shutdown();
    throw new CliError(refusal, 2);
  }
  if (trawl.config.role === 'all') trawl.container.resolve(Tokens.Jobs).start();
  const server = createMcpServer(api, bindTools(api), trawl.version, caller, {
    origin: `http://127.0.0.1:${trawl.config.server.port}`,
    metrics: trawl.container.resolve(MetricsToken),
  });
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
    .description('The MCP server on stdio, for desktop agents; its tools act for one workspace')
    .option(
      '--api-key <key>',
      "act for this key's workspace (default: TRAWL_API_KEY); without one the default workspace (self-hosted only: cloud mode needs a key)",
    )
    .addHelpText(
      'after',
      "\nExample (an MCP client's command):\n  bun run --cwd /path/to/trawl --silent cli mcp\n  TRAWL_DATA_DIR=/path/to/data bun /path/to/trawl/cli/main.ts mcp",
    )
    .action((options: { apiKey?: string }) => serveMcp(options));
