/**
 * The search feature (POST /v1/search): the `[search]` section and the SearchService the route is
 * handed. The providers are `search` plugins; the pages are scraped by the core Scraper. Its only
 * stored traces are the providers' lists and the pages' scrape results (the results table), so it
 * has no migrations and no jobs.
 */
import type { InjectionToken } from 'tsyringe';
import { defineFeature, service, type FeatureContext } from '../../feature.ts';
import { CoreTokens, Tokens } from '../../services.ts';
import { searchConfigSchema, type SearchSettings } from './config.ts';
import { SearchService } from './service.ts';

export const SearchTokens = {
  Service: Symbol('SearchService') as InjectionToken<SearchService>,
} as const;

export const searchFeature = defineFeature<SearchSettings>({
  name: 'search',
  description: 'Web search (POST /v1/search): a provider chain of search plugins, every result page scraped through the pipeline.',
  costs: {
    search: { credits: 1, description: 'POST /v1/search, per query.' },
    searchResult: { credits: 1, description: 'Per result page a search scrapes, on top.' },
  },
  config: searchConfigSchema,
  tokens: SearchTokens,
  services: [
    service(SearchTokens.Service, (ctx: FeatureContext<SearchSettings>) => {
      const registry = ctx.resolve(CoreTokens.Registry);
      // The same rule as the Scraper's cache: results are stored only while the results sink runs.
      const stores = registry.providers('sink:results').some((p) => p.enabled);
      return new SearchService({
        registry,
        scraper: ctx.resolve(CoreTokens.Scraper),
        results: stores ? ctx.resolve(Tokens.Results) : null,
        settings: ctx.settings,
        cacheTtlSeconds: ctx.config.storage.cacheTtlSeconds,
        logger: ctx.logger,
      });
    }),
  ],
});
