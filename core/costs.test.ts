// The cost table from declarations: a feature's or a format's unit is a `[credits]` key with its
// default, charged at that price; the built-in table is the one config/default.toml documents.
import { describe, expect, test } from 'bun:test';
import { loadConfig } from './config.ts';
import { defineFeature } from './feature.ts';
import { priceOf, type Units } from './metering.ts';
import { definePlugin } from './plugin.ts';
import { builtinFeatures } from './features/index.ts';
import { builtinPlugins } from '../plugins/index.ts';
import pino from 'pino';
import type { Pipeline } from './pipeline.ts';
import { PluginRegistry } from './registry.ts';
import { Scraper } from './scrape.ts';

const widgets = defineFeature({
  name: 'widgets',
  description: 'Widgets, for this test.',
  costs: { widgetPage: { credits: 3, description: 'Per widget page.' }, widgetAudit: { credits: 'plan', description: 'Per audit.' } },
});

const widgetFormat = (credits: number) =>
  definePlugin({
    kind: 'format',
    name: 'widget',
    description: 'A widget.',
    provides: ['format:widget'],
    cost: { unit: 'widgetPage', credits, description: 'A scrape asking for the widget format.' },
    setup: () => ({ render: () => '' }),
  });

const load = (options: Partial<Parameters<typeof loadConfig>[0]> = {}) =>
  loadConfig({ plugins: [], features: [widgets], env: {}, defaultFile: null, ...options });

describe('declared cost units', () => {
  test("a feature's unit is a [credits] key with its default, charged at that price", () => {
    const config = load();
    expect(config.credits).toEqual({ scrape: 1, widgetPage: 3, widgetAudit: 'plan' });
    expect(priceOf({ scrape: 1, widgetPage: 2 }, 'starter', config)).toBe(7);
    // A plan-rated unit costs the plan's rate, and is a paid feature on a plan without one.
    expect(priceOf({ widgetAudit: 2 }, 'starter', config)).toBe(10);
    expect(() => priceOf({ widgetAudit: 1 }, 'free', config)).toThrow('widgetAudit requires a paid plan');
  });

  test('the unit is set like any key, and an unknown one is still refused', () => {
    expect(load({ env: { TRAWL_CREDITS_WIDGET_PAGE: '4' } }).credits.widgetPage).toBe(4);
    expect(priceOf({ widgetPage: 1 }, 'growth', load({ overrides: { credits: { widgetPage: 'plan' } } }))).toBe(3);
    expect(() => load({ overrides: { credits: { widgetPage: -1 } } })).toThrow('Invalid configuration at credits.widgetPage: Too small');
    expect(() => load({ features: [], overrides: { credits: { widgetPage: 1 } } })).toThrow(
      'Invalid configuration at credits: Unrecognized key: "widgetPage"',
    );
  });

  test('a format may declare the unit a feature declares, at the same price only', () => {
    expect(load({ plugins: [widgetFormat(3)] }).credits.widgetPage).toBe(3);
    expect(load({ plugins: [widgetFormat(3)], features: [] }).credits).toEqual({ scrape: 1, widgetPage: 3 });
    expect(() => load({ plugins: [widgetFormat(4)] })).toThrow(
      'Plugin format.widget: cost unit "widgetPage" costs 4, but Feature "widgets" declares it at 3',
    );
  });

  test("a scrape asking for a format is charged the format's unit", () => {
    const config = load({ plugins: [widgetFormat(3)] });
    const scraper = new Scraper(new PluginRegistry([widgetFormat(3)], config), {} as Pipeline, null, config, pino({ level: 'silent' }));
    expect(scraper.formatUnits(['markdown'])).toEqual({});
    const units: Units = { scrape: 1, ...scraper.formatUnits(['markdown', 'widget']) };
    expect(units).toEqual({ scrape: 1, widgetPage: 1 });
    expect(priceOf(units, 'pro', config)).toBe(4);
  });

  test('the built-in declarations make the table config/default.toml documents', () => {
    const table = {
      scrape: 1,
      query: 2,
      crawlPage: 1,
      batchItem: 1,
      map: 1,
      search: 1,
      searchResult: 1,
      extract: 5,
      summarize: 2,
      endpoints: 1,
      lead: 2,
      leadBatchItem: 2,
      diff: 1,
      brand: 2,
      watchCheck: 1,
      socialCheck: 'plan' as const,
      audiencePage: 'plan' as const,
    };
    expect(loadConfig({ plugins: builtinPlugins, features: builtinFeatures, env: {}, defaultFile: null }).credits).toEqual(table);
    expect(loadConfig({ plugins: builtinPlugins, features: builtinFeatures, env: {} }).credits).toEqual(table);
    // A boot with fewer features reads the shipped file without the absent ones' units.
    expect(loadConfig({ plugins: [], features: [], env: {} }).credits).toEqual({ scrape: 1 });
  });
});
