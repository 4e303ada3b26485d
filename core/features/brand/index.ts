/**
 * The brand feature (POST /v1/brand): the `[brand]` section and the BrandService the route is
 * handed. The page comes from the core Scraper through the `brand` format (rendered in the browser
 * when it can be), its stylesheets and manifest from the HTTP client; it stores nothing of its own.
 */
import type { InjectionToken } from 'tsyringe';
import { defineFeature, service, type FeatureContext } from '../../feature.ts';
import { CoreTokens, Tokens } from '../../tokens.ts';
import { LlmTokens } from '../../llm/tokens.ts';
import { brandConfigSchema, type BrandSettings } from './config.ts';
import { BrandService } from './service.ts';

export const BrandTokens = {
  Service: Symbol('BrandService') as InjectionToken<BrandService>,
} as const;

export const brandFeature = defineFeature<BrandSettings>({
  name: 'brand',
  description:
    'Brand profiles (POST /v1/brand): name, logo, favicon, colours, colour scheme, fonts, images and social profiles of a site, with tone and personality when a language model is configured.',
  costs: { brand: { credits: 2, description: 'POST /v1/brand, per call.' } },
  config: brandConfigSchema,
  tokens: BrandTokens,
  services: [
    service(
      BrandTokens.Service,
      (ctx: FeatureContext<BrandSettings>) =>
        new BrandService({
          scraper: ctx.resolve(CoreTokens.Scraper),
          http: ctx.resolve(Tokens.Http),
          llm: ctx.resolve(LlmTokens.Service),
          settings: ctx.settings,
        }),
    ),
  ],
});
