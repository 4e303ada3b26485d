/**
 * The map feature (POST /v1/map): the `[map]` section and the mapper the route is handed. Its
 * only stored trace is the start page's scrape result, so it has no migrations and no jobs.
 */
import type { InjectionToken } from 'tsyringe';
import { defineFeature, service, type FeatureContext } from '../../feature.ts';
import { RobotsCache } from '../../net/robots.ts';
import { CoreTokens, Tokens } from '../../services.ts';
import { mapConfigSchema, type MapSettings } from './config.ts';
import { createMapper, type Mapper } from './map.ts';

export const MapTokens = {
  Mapper: Symbol('Mapper') as InjectionToken<Mapper>,
} as const;

/** The process's robots.txt cache when the crawl feature provides it; a map-only server keeps its own (Sitemap lines only). */
function robotsOf(ctx: FeatureContext<MapSettings>): RobotsCache {
  if (ctx.has(Tokens.Robots)) return ctx.resolve(Tokens.Robots);
  return new RobotsCache(ctx.resolve(Tokens.Http), { userAgent: ctx.config.fetch.userAgent, ttlMs: 3_600_000, maxCrawlDelayMs: 0 });
}

export const mapFeature = defineFeature<MapSettings>({
  name: 'map',
  description: 'Site maps (POST /v1/map): URLs from sitemaps, feeds and the start page, without scraping them.',
  config: mapConfigSchema,
  tokens: MapTokens,
  services: [
    service(MapTokens.Mapper, (ctx: FeatureContext<MapSettings>) => createMapper({
      http: ctx.resolve(Tokens.Http),
      scraper: ctx.resolve(CoreTokens.Scraper),
      settings: ctx.settings,
      robots: robotsOf(ctx),
    })),
  ],
});
