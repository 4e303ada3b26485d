/**
 * The extract feature (POST /v1/extract): the ExtractService the route is handed. The page comes
 * from the core Scraper, the answers from the LLM service; it stores nothing of its own (the
 * page's scrape is cached like any), so it has no config section, migrations or jobs.
 */
import type { InjectionToken } from 'tsyringe';
import { defineFeature, service } from '../../feature.ts';
import { CoreTokens } from '../../services.ts';
import { LlmTokens } from '../llm/tokens.ts';
import { ExtractService } from './service.ts';

export const ExtractTokens = {
  Service: Symbol('ExtractService') as InjectionToken<ExtractService>,
} as const;

export const extractFeature = defineFeature({
  name: 'extract',
  description: 'Structured extraction (POST /v1/extract): a page\'s text to JSON matching a given or generated JSON Schema.',
  tokens: ExtractTokens,
  services: [service(ExtractTokens.Service, (ctx) => new ExtractService({ scraper: ctx.resolve(CoreTokens.Scraper), llm: ctx.resolve(LlmTokens.Service) }))],
});
