/**
 * Boots a Trawl instance from the environment and start options: loads the layered config with
 * the built-in plugin and feature lists and hands them to the composition root. Used by the
 * server and the CLI; tests may pass a longer feature list (a fixture feature).
 */
import type { Logger } from 'pino';
import { loadConfig } from '../core/config.ts';
import { attributeConfigError } from '../core/config-sources.ts';
import { createTrawl, type Trawl } from '../core/container.ts';
import { createLogger } from '../core/logger.ts';
import type { Storage } from '../core/services.ts';
import type { HttpClientHooks } from '../core/net/http-client.ts';
import type { AnyFeature } from '../core/feature.ts';
import { builtinFeatures } from '../core/features/index.ts';
import { builtinPlugins } from '../plugins/index.ts';
import { RunHookFormatsToken } from '../core/features/crawl/hooks.ts';
import { runHookFormats } from './wire/v2/webhooks.ts';

export interface BootOptions {
  env?: Record<string, string | undefined>;
  /** Start options and test settings; they win over files and environment. */
  overrides?: Record<string, unknown>;
  /** How the user typed the start options among the overrides (`server.port` → `--port`), for messages. */
  optionNames?: Readonly<Record<string, string>>;
  storage?: Storage;
  logger?: Logger;
  /** Defaults to the built-in features. */
  features?: readonly AnyFeature[];
  /** Start the content workers now rather than on the first pages (the server does; tests and the CLI do not). */
  warmWorkers?: boolean;
  /** Tests only: see CreateTrawlOptions.httpHooks. */
  httpHooks?: HttpClientHooks;
}

export async function bootTrawl(options: BootOptions = {}): Promise<Trawl> {
  const warnings: string[] = [];
  const features = options.features ?? builtinFeatures;
  const config = loadConfig({
    plugins: builtinPlugins,
    features,
    env: options.env ?? process.env,
    overrides: options.overrides,
    optionNames: options.optionNames,
    warnings,
  });
  const logger = options.logger ?? createLogger(config.log.level, undefined, config.log.format);
  for (const warning of warnings) logger.warn(warning);
  // Content workers import the same list themselves (core never imports plugins).
  const pluginList = { module: new URL('../plugins/index.ts', import.meta.url).href, name: 'builtinPlugins' };
  try {
    return await createTrawl({
      config,
      plugins: builtinPlugins,
      features,
      storage: options.storage,
      logger,
      pluginList,
      warmWorkers: options.warmWorkers,
      httpHooks: options.httpHooks,
      // Wire formats' webhook shapes, which job workers render (core never imports a wire format).
      instances: [[RunHookFormatsToken, runHookFormats]],
    });
  } catch (err) {
    // Plugin options are checked while the registry is built: name the variable or key that set them.
    throw attributeConfigError(err, config);
  }
}
