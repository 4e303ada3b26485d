/**
 * Starting Trawl as a service, for `bun start` (server/main.ts) and `bun run cli serve`: the start
 * options (`--port`, `--host`, `--api-key`, `--role`), the boot, the HTTP API and/or the job
 * workers (`--role`, TRAWL_ROLE; default all), until SIGINT/SIGTERM, then a clean shutdown:
 * running jobs finish or are handed back to the queue.
 */
import { Command, Option } from 'commander';
import { attributeConfigError } from '../core/config-sources.ts';
import { TrawlError } from '../core/errors.ts';
import { Tokens } from '../core/tokens.ts';
import { maxHeaderSize } from 'node:http';
import { listen } from './app.ts';
import { bootTrawl } from './boot.ts';

const ROLES = ['api', 'worker', 'all'];

interface ServeFlags {
  port?: string;
  host?: string;
  apiKey?: string;
  role?: string;
}

/** A refused start option is bad configuration: one line, exit 2. */
const refused = (message: string) => new TrawlError('config_invalid', message);

function overrides(flags: ServeFlags): Record<string, unknown> {
  const server: Record<string, unknown> = {};
  if (flags.port !== undefined) {
    const port = Number(flags.port);
    if (!/^\d+$/.test(flags.port.trim()) || port > 65535) throw refused(`--port must be a number from 0 to 65535, got "${flags.port}"`);
    server.port = port;
  }
  if (flags.host !== undefined) server.host = flags.host;
  if (flags.role !== undefined && !ROLES.includes(flags.role)) throw refused(`--role must be api, worker or all, got "${flags.role}"`);
  return { server, ...(flags.apiKey ? { apiKey: flags.apiKey } : {}), ...(flags.role ? { role: flags.role } : {}) };
}

/** Boots and serves until a signal; resolves once shut down. */
export async function serve(flags: ServeFlags): Promise<void> {
  const trawl = await bootTrawl({
    warmWorkers: true,
    overrides: overrides(flags),
    optionNames: { 'server.port': '--port', 'server.host': '--host', apiKey: '--api-key', role: '--role' },
  });
  let running: ReturnType<typeof listen> | null = null;
  if (trawl.config.role === 'worker') {
    trawl.container.resolve(Tokens.Jobs).start();
    trawl.logger.info(
      { database: trawl.storage.dialect, plugins: trawl.registry.counts() },
      `Trawl ${trawl.version} running job workers (no HTTP API)`,
    );
  } else {
    // Cloud mode never lets a request in without a workspace key, configured key or not.
    if (trawl.config.mode === 'cloud')
      trawl.logger.info('Cloud mode: every request needs a workspace API key (created with the admin API or `bun run cli admin`)');
    else if (!trawl.config.apiKey) trawl.logger.warn('No API key configured (--api-key or TRAWL_API_KEY): every request is allowed');
    // Bun answers past its own header limit before Trawl sees the request, with a bare 431.
    const bunLimit = maxHeaderSize;
    if (trawl.config.server.maxHeaderBytes >= bunLimit) {
      trawl.logger.warn(
        `server.maxHeaderBytes (${trawl.config.server.maxHeaderBytes}) is not below Bun's limit (${bunLimit}): longer requests get Bun's bare 431 instead of the JSON one; start with bun --max-http-header-size=65536 (as bun start does)`,
      );
    }
    // listen() also starts the job workers when the role is "all". Building the routes builds their
    // services, whose settings may name plugins (search.providers): a mistake there stops the boot too.
    try {
      running = listen(trawl);
    } catch (err) {
      await trawl.shutdown();
      throw attributeConfigError(err, trawl.config);
    }
    trawl.logger.info(
      { url: running.url, role: trawl.config.role, database: trawl.storage.dialect, plugins: trawl.registry.counts() },
      `Trawl ${trawl.version} listening on ${running.url}`,
    );
  }
  const signal = await new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  trawl.logger.info({ signal }, 'shutting down');
  await running?.stop();
  await trawl.shutdown();
}

/** The start options as a command (`bun start`, `bun run cli serve`). */
export function serveCommand(name: string): Command {
  return new Command(name)
    .description('Run the Trawl server: the HTTP API and/or the job workers, until Ctrl-C')
    .option('--port <n>', 'port to listen on (PORT, server.port; default 3000, 0 for any free one)')
    .option('--host <host>', 'address to listen on (server.host; default 127.0.0.1)')
    .addOption(new Option('--api-key <key>', 'the API key requests must carry (TRAWL_API_KEY)'))
    .option('--role <role>', 'api, worker or all (TRAWL_ROLE; default all)')
    .addHelpText(
      'after',
      '\nConfiguration: config/default.toml < the file in TRAWL_CONFIG < TRAWL_* variables < these options (config/default.toml lists every key).\nExample:\n  TRAWL_FETCH_ALLOW_PRIVATE_NETWORK=true bun start --port 3000',
    )
    .action((flags: ServeFlags) => serve(flags));
}
