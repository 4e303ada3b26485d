/**
 * The shape of Trawl's configuration outside the plugin tables, with the defaults that
 * `config/default.toml` spells out for people. Plugin tables are checked by the registry against
 * each plugin's own options schema.
 */
import { z } from 'zod';

const pluginEntry = z.union([z.boolean(), z.record(z.string(), z.unknown())]);

export const configSchema = z.strictObject({
  apiKey: z.string().min(1).optional(),
  server: z.strictObject({
    host: z.string().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(3000),
    maxBodyBytes: z.number().int().positive().default(1_048_576),
  }).prefault({}),
  storage: z.strictObject({
    dataDir: z.string().min(1).default('./data'),
    databaseUrl: z.string().min(1).optional(),
    cacheTtlSeconds: z.number().int().min(0).default(3600),
  }).prefault({}),
  fetch: z.strictObject({
    allowPrivateNetwork: z.boolean().default(false),
    timeoutMs: z.number().int().positive().default(30_000),
    maxRedirects: z.number().int().min(0).max(50).default(10),
    maxBodyBytes: z.number().int().positive().default(20 * 1024 * 1024),
    userAgent: z.string().min(1).default('TrawlBot/0.1 (+self-hosted)'),
    headers: z.record(z.string(), z.string()).default({}),
    /** Test-only host override, like curl's --resolve: `"a.site.test" = "127.0.0.1"`. */
    resolve: z.record(z.string(), z.string()).default({}),
  }).prefault({}),
  scrape: z.strictObject({
    /** Whole-scrape time limit (fetch + extraction); a request's `timeout` overrides it. */
    timeoutMs: z.number().int().positive().default(60_000),
  }).prefault({}),
  log: z.strictObject({
    level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  }).prefault({}),
  plugins: z.record(z.string(), z.record(z.string(), pluginEntry)).default({}),
});

export type TrawlConfig = z.output<typeof configSchema>;
export type PluginEntry = z.output<typeof pluginEntry>;
