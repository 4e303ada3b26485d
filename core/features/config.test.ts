// Feature config sections: `[crawl]`, `[map]`, `[webhooks]` in config/default.toml are validated by
// their feature's schema, exposed on the frozen config, and settable through derived env names.
import { describe, expect, test } from 'bun:test';
import { loadConfig } from '../config.ts';
import { defineFeature } from '../feature.ts';
import { buildConfigSchema } from '../config-schema.ts';
import { crawlFeature } from './crawl/index.ts';
import { mapFeature } from './map/index.ts';
import { notifyFeature } from './notify/index.ts';
import { webhooksFeature } from './webhooks/index.ts';
import { builtinFeatures } from './index.ts';

const load = (env: Record<string, string> = {}, overrides?: Record<string, unknown>) =>
  loadConfig({ plugins: [], features: builtinFeatures, env, overrides });

describe('feature config sections', () => {
  test('default.toml sections are read through the features and stay on the frozen config', () => {
    const config = load();
    expect(crawlFeature.settings(config).maxPagesLimit).toBe(10_000);
    expect(mapFeature.settings(config).maxSitemaps).toBe(50);
    expect(webhooksFeature.settings(config).maxAttempts).toBe(8);
    expect(config.crawl).toBe(crawlFeature.settings(config));
    expect(Object.isFrozen(config.crawl)).toBe(true);
  });

  test('environment names derive for feature keys; values are checked by the feature schema', () => {
    expect(crawlFeature.settings(load({ TRAWL_CRAWL_CONCURRENCY: '3' })).concurrency).toBe(3);
    expect(() => load({ TRAWL_MAP_MAX_SITEMAPS: '0' })).toThrow('Invalid configuration: TRAWL_MAP_MAX_SITEMAPS (map.maxSitemaps)');
    expect(() => load({}, { webhooks: { nope: 1 } })).toThrow(/Invalid configuration at webhooks: Unrecognized key: "nope"/);
  });

  test('tables within a section get names too: [notify.smtp] from TRAWL_NOTIFY_SMTP_*', () => {
    const warnings: string[] = [];
    const env = {
      TRAWL_NOTIFY_SMTP_HOST: 'smtp.example.com',
      TRAWL_NOTIFY_SMTP_PORT: '465',
      TRAWL_NOTIFY_SMTP_FROM: 'Trawl <trawl@example.com>',
      TRAWL_NOTIFY_SMTP_USERNAME: 'trawl',
      TRAWL_NOTIFY_SMTP_PASSWORD: '12345',
      TRAWL_NOTIFY_SMTP_TLS: 'implicit',
    };
    const config = loadConfig({ plugins: [], features: builtinFeatures, env, warnings });
    expect(warnings).toEqual([]);
    expect(notifyFeature.settings(config).smtp).toEqual({
      host: 'smtp.example.com',
      port: 465,
      from: 'Trawl <trawl@example.com>',
      username: 'trawl',
      password: '12345',
      tls: 'implicit',
      timeoutMs: 30_000,
    });
    expect(() => load({ TRAWL_NOTIFY_SMTP_TLS: 'yes' })).toThrow('Invalid configuration: TRAWL_NOTIFY_SMTP_TLS (notify.smtp.tls)');
  });

  test('a boot without a feature ignores its shipped defaults but not a section set elsewhere', () => {
    const config = loadConfig({ plugins: [], env: {} });
    expect(config.crawl).toBeUndefined();
    expect(() => loadConfig({ plugins: [], env: {}, overrides: { crawl: { concurrency: 2 } } })).toThrow(/Unrecognized key: "crawl"/);
  });

  test("a feature cannot take a core section or another feature's", () => {
    expect(() => buildConfigSchema([defineFeature({ name: 'fetch', description: 'x', config: crawlFeature.config })])).toThrow(
      'config section [fetch] is already taken',
    );
    expect(() => buildConfigSchema([crawlFeature, crawlFeature])).toThrow('config section [crawl] is already taken');
  });
});
