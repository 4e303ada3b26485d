/**
 * Boots a Trawl instance from the environment and start options: loads the layered config with
 * the built-in plugin list and hands it to the composition root. Used by the server and the CLI.
 */
import type { Logger } from 'pino';
import { loadConfig } from '../core/config.ts';
import { createTrawl, type Trawl } from '../core/container.ts';
import { createLogger } from '../core/logger.ts';
import type { Storage } from '../core/services.ts';
import { builtinPlugins } from '../plugins/index.ts';

export interface BootOptions {
  env?: Record<string, string | undefined>;
  /** Start options and test settings; they win over files and environment. */
  overrides?: Record<string, unknown>;
  storage?: Storage;
  logger?: Logger;
}

export async function bootTrawl(options: BootOptions = {}): Promise<Trawl> {
  const warnings: string[] = [];
  const config = loadConfig({ plugins: builtinPlugins, env: options.env ?? process.env, overrides: options.overrides, warnings });
  const logger = options.logger ?? createLogger(config.log.level);
  for (const warning of warnings) logger.warn(warning);
  return createTrawl({ config, plugins: builtinPlugins, storage: options.storage, logger });
}
