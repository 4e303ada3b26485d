/**
 * The map feature (POST /v1/map): the `[map]` section and the mapper the route is handed. It
 * stores nothing, so it has no migrations and no jobs.
 */
import type { InjectionToken } from 'tsyringe';
import { defineFeature, service, type FeatureContext } from '../../feature.ts';
import { Tokens } from '../../services.ts';
import { mapConfigSchema, type MapSettings } from './config.ts';
import { createMapper, type Mapper } from './map.ts';

export const MapTokens = {
  Mapper: Symbol('Mapper') as InjectionToken<Mapper>,
} as const;

export const mapFeature = defineFeature<MapSettings>({
  name: 'map',
  description: 'Site maps (POST /v1/map): URLs from sitemaps, feeds and the start page, without scraping them.',
  config: mapConfigSchema,
  tokens: MapTokens,
  services: [
    service(MapTokens.Mapper, (ctx: FeatureContext<MapSettings>) => createMapper(ctx.resolve(Tokens.Http), ctx.settings)),
  ],
});
