/**
 * The endpoints feature (POST /v1/endpoints): the `[endpoints]` section and the EndpointFinder the
 * route is handed. It stores nothing of its own (the page's scrape is stored like any scrape), so
 * it has no migrations or jobs; the scanning itself is the `scanner` plugins'.
 */
import type { InjectionToken } from 'tsyringe';
import { defineFeature, service, type FeatureContext } from '../../feature.ts';
import { CoreTokens, Tokens } from '../../tokens.ts';
import { endpointsConfigSchema, type EndpointsSettings } from './config.ts';
import { EndpointFinder } from './service.ts';

export const EndpointsTokens = {
  Finder: Symbol('EndpointFinder') as InjectionToken<EndpointFinder>,
} as const;

export const endpointsFeature = defineFeature<EndpointsSettings>({
  name: 'endpoints',
  description:
    "Endpoint discovery (POST /v1/endpoints): request targets read from a page's inline scripts, linked bundles and their source maps by the scanner plugins.",
  costs: { endpoints: { credits: 1, description: 'POST /v1/endpoints, per call.' } },
  config: endpointsConfigSchema,
  tokens: EndpointsTokens,
  services: [
    service(
      EndpointsTokens.Finder,
      (ctx: FeatureContext<EndpointsSettings>) =>
        new EndpointFinder({
          scraper: ctx.resolve(CoreTokens.Scraper),
          http: ctx.resolve(Tokens.Http),
          content: ctx.resolve(CoreTokens.Content),
          settings: ctx.settings,
        }),
    ),
  ],
});
