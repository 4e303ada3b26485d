// The composed request schema and the checks made from plugin declarations: a field a plugin
// declares is part of the request; setting it while that plugin is disabled is a 400 naming it.
import { describe, expect, test } from 'bun:test';
import pino from 'pino';
import { z } from 'zod';
import { loadConfig } from '../config.ts';
import { createJob } from '../job.ts';
import { definePlugin, type AnyPlugin } from '../plugin.ts';
import type { Pipeline } from '../pipeline.ts';
import { PluginRegistry } from '../registry.ts';
import { Scraper } from '../scrape.ts';
import { composeRequestSchema, isSet } from './compose.ts';
import { snakeFieldName } from '../testing.ts';

const shout = definePlugin({
  kind: 'transform',
  name: 'shout',
  description: 'Upper-cases the content.',
  api: {
    requestFields: {
      shout: { schema: z.boolean().default(false) },
      shoutVolume: { schema: z.number().int().optional(), needsPlugin: false },
    },
  },
  setup: () => ({ apply: () => {} }),
});
const echo = definePlugin({
  kind: 'format',
  name: 'echo',
  description: '',
  provides: ['format:echo'],
  setup: () => ({ render: () => '' }),
});
const PLUGINS = [shout, echo] as unknown as AnyPlugin[];

function scraperWith(env: Record<string, string> = {}) {
  const config = loadConfig({ plugins: PLUGINS, defaultFile: null, env });
  const registry = new PluginRegistry(PLUGINS, config);
  return registry
    .setup(() => ({
      logger: pino({ level: 'silent' }),
      config,
      resolve: () => {
        throw new Error('no services');
      },
    }))
    .then(() => new Scraper(registry, {} as Pipeline, null, config, pino({ level: 'silent' })));
}

const job = (request: Record<string, unknown>) =>
  createJob({ url: 'https://example.com/', formats: ['echo'], noCache: false, ...request }, 'default', new AbortController().signal);

describe('composeRequestSchema', () => {
  test('core fields first, then the fields plugins declare, in plugin order', () => {
    const { schema, providers } = composeRequestSchema(PLUGINS);
    expect(Object.keys(schema.shape)).toEqual([
      'url',
      'formats',
      'includeSelectors',
      'excludeSelectors',
      'noCache',
      'timeoutMs',
      'maxAgeMs',
      'proxy',
      'headers',
      'shout',
      'shoutVolume',
    ]);
    expect(providers.get('shout')).toEqual({ ids: ['transform.shout'], needsPlugin: true });
    expect(schema.safeParse({ url: 'https://e.com', shout: 'loud' }).success).toBe(false);
    expect(schema.safeParse({ url: 'https://e.com', whisper: true }).success).toBe(false);
  });

  test('a plugin may not redefine a core field', () => {
    const bad = definePlugin({
      kind: 'transform',
      name: 'bad',
      description: '',
      api: { requestFields: { url: { schema: z.string() } } },
      setup: () => ({ apply: () => {} }),
    });
    expect(() => composeRequestSchema([bad] as unknown as AnyPlugin[])).toThrow(
      'Plugin transform.bad declares request field "url", which is a core field',
    );
  });

  test('isSet: unset, false and empty lists ask for nothing', () => {
    expect([undefined, null, false, []].map(isSet)).toEqual([false, false, false, false]);
    expect([true, 0, '', ['x']].map(isSet)).toEqual([true, true, true, true]);
  });
});

describe('Scraper.validate from declarations', () => {
  test("a set field whose plugin is disabled is a 400 naming the plugin, in the caller's field names", async () => {
    const scraper = await scraperWith({ TRAWL_DISABLE: 'transform.shout' });
    const error = (() => {
      try {
        scraper.validate(job({ shout: true }), snakeFieldName);
      } catch (err) {
        return err as Error & { status: number };
      }
      return null;
    })();
    expect(error?.message).toBe('shout needs plugin transform.shout, which is disabled in the configuration');
    expect(error?.status).toBe(400);
    expect(() => scraper.validate(job({ shoutVolume: 3 }), snakeFieldName)).not.toThrow(); // needsPlugin: false
    expect(() => scraper.validate(job({ shout: false }), snakeFieldName)).not.toThrow();
  });

  test('with the plugin enabled the same request passes', async () => {
    const scraper = await scraperWith();
    expect(() => scraper.validate(job({ shout: true }))).not.toThrow();
    expect(scraper.request.providers.has('shout')).toBe(true);
  });

  test('a format the interface names but no installed plugin renders is a 400 saying what is missing', async () => {
    const scraper = await scraperWith();
    const error = (() => {
      try {
        scraper.validate(job({ formats: ['markdown'] }));
      } catch (err) {
        return err as Error & { status: number };
      }
      return null;
    })();
    expect([error?.status, error?.message]).toEqual([
      400,
      'Format "markdown" is not available: no installed plugin provides format:markdown',
    ]);
  });
});
