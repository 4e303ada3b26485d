/**
 * `bun start [--port N] [--host H] [--api-key K] [--role api|worker|all]`: boots Trawl and serves
 * the HTTP API and/or runs the job workers (`--role`, TRAWL_ROLE; default all) until
 * SIGINT/SIGTERM, then shuts down cleanly: running jobs finish or are handed back to the queue.
 */
import { parseArgs } from 'node:util';
import { bootTrawl } from './boot.ts';
import { listen } from './app.ts';
import { Tokens } from '../core/services.ts';

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: { port: { type: 'string' }, host: { type: 'string' }, 'api-key': { type: 'string' }, role: { type: 'string' } },
  strict: true,
});

const server: Record<string, unknown> = {};
if (values.port !== undefined) {
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a number from 0 to 65535, got "${values.port}"`);
    process.exit(2);
  }
  server.port = port;
}
if (values.host) server.host = values.host;
if (values.role !== undefined && !['api', 'worker', 'all'].includes(values.role)) {
  console.error(`--role must be api, worker or all, got "${values.role}"`);
  process.exit(2);
}

let trawl;
try {
  trawl = await bootTrawl({ warmWorkers: true, overrides: { server, ...(values['api-key'] ? { apiKey: values['api-key'] } : {}), ...(values.role ? { role: values.role } : {}) } });
} catch (err) {
  console.error(`Trawl could not start: ${(err as Error).message}`);
  process.exit(1);
}

let running: ReturnType<typeof listen> | null = null;
if (trawl.config.role === 'worker') {
  trawl.container.resolve(Tokens.Jobs).start();
  trawl.logger.info({ database: trawl.storage.dialect, plugins: trawl.registry.counts() }, `Trawl ${trawl.version} running job workers (no HTTP API)`);
} else {
  if (!trawl.config.apiKey) {
    trawl.logger.warn('No API key configured (--api-key or TRAWL_API_KEY): every request is allowed');
  }
  // listen() also starts the job workers when the role is "all". Building the routes builds their
  // services, whose settings may name plugins (search.providers): a mistake there stops the boot too.
  try {
    running = listen(trawl);
  } catch (err) {
    console.error(`Trawl could not start: ${(err as Error).message}`);
    await trawl.shutdown();
    process.exit(1);
  }
  trawl.logger.info({ url: running.url, role: trawl.config.role, database: trawl.storage.dialect, plugins: trawl.registry.counts() }, `Trawl ${trawl.version} listening on ${running.url}`);
}

const stop = async (signal: string) => {
  trawl.logger.info({ signal }, 'shutting down');
  await running?.stop();
  await trawl.shutdown();
  process.exit(0);
};
process.once('SIGINT', () => void stop('SIGINT'));
process.once('SIGTERM', () => void stop('SIGTERM'));
