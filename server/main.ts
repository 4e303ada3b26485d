/**
 * `bun start [--port N] [--host H] [--api-key K]`: boots Trawl and serves the HTTP API until
 * SIGINT/SIGTERM, then shuts down cleanly.
 */
import { parseArgs } from 'node:util';
import { bootTrawl } from './boot.ts';
import { listen } from './app.ts';

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: { port: { type: 'string' }, host: { type: 'string' }, 'api-key': { type: 'string' } },
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

let trawl;
try {
  trawl = await bootTrawl({ overrides: { server, ...(values['api-key'] ? { apiKey: values['api-key'] } : {}) } });
} catch (err) {
  console.error(`Trawl could not start: ${(err as Error).message}`);
  process.exit(1);
}

if (!trawl.config.apiKey) {
  trawl.logger.warn('No API key configured (--api-key or TRAWL_API_KEY): every request is allowed');
}
const running = listen(trawl);
trawl.logger.info({ url: running.url, database: trawl.storage.dialect, plugins: trawl.registry.counts() }, `Trawl ${trawl.version} listening on ${running.url}`);

const stop = async (signal: string) => {
  trawl.logger.info({ signal }, 'shutting down');
  await running.stop();
  await trawl.shutdown();
  process.exit(0);
};
process.once('SIGINT', () => void stop('SIGINT'));
process.once('SIGTERM', () => void stop('SIGTERM'));
