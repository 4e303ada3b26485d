/**
 * The map feature (POST /v1/map, /v2/map): the `[map]` section, the mapper (also what a crawl
 * seeds its frontier with) and the service the routes are handed, which stores each answer in the
 * result store (store.ts). Its stored traces are rows of the results table (the map's own and the
 * start page's scrape), so it has no migrations and no jobs.
 */
import type { InjectionToken } from 'tsyringe';
import { defineFeature, service, type FeatureContext } from '../../feature.ts';
import { RobotsCache } from '../../net/robots.ts';
import { CoreTokens, Tokens } from '../../tokens.ts';
import { mapConfigSchema, type MapSettings } from './config.ts';
import { createMapper, type Mapper } from './map.ts';
import { createMapService, type MapService } from './store.ts';

export const MapTokens = {
  /** Discovery only, nothing stored: for other features (a crawl's seeds). */
  Mapper: Symbol('Mapper') as InjectionToken<Mapper>,
  /** Discovery and the stored answer with its id: for the routes. */
  Service: Symbol('MapService') as InjectionToken<MapService>,
} as const;

/** The process's robots.txt cache when the crawl feature provides it; a map-only server keeps its own (Sitemap lines only). */
function robotsOf(ctx: FeatureContext<MapSettings>): RobotsCache {
  if (ctx.has(Tokens.Robots)) return ctx.resolve(Tokens.Robots);
  return new RobotsCache(ctx.resolve(Tokens.Http), { userAgent: ctx.config.fetch.userAgent, ttlMs: 3_600_000, maxCrawlDelayMs: 0 });
}

export const mapFeature = defineFeature<MapSettings>({
  name: 'map',
  description: 'Site maps (POST /v1/map): URLs from sitemaps, feeds and the start page, without scraping them, each answer stored.',
  costs: { map: { credits: 1, description: 'POST /v1/map, per call.' } },
  config: mapConfigSchema,
  tokens: MapTokens,
  services: [
    service(MapTokens.Mapper, (ctx: FeatureContext<MapSettings>) =>
      createMapper({
        http: ctx.resolve(Tokens.Http),
        scraper: ctx.resolve(CoreTokens.Scraper),
        settings: ctx.settings,
        robots: robotsOf(ctx),
      }),
    ),
    service(MapTokens.Service, (ctx: FeatureContext<MapSettings>) => {
      // The same rule as the Scraper's cache: results are stored only while the results sink runs.
      const stores = ctx
        .resolve(CoreTokens.Registry)
        .providers('sink:results')
        .some((p) => p.enabled);
      return createMapService({
        mapper: ctx.resolve(MapTokens.Mapper),
        results: stores ? ctx.resolve(Tokens.Results) : null,
        logger: ctx.logger,
      });
    }),
  ],
});
