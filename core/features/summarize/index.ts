/**
 * The summarize feature (POST /v1/summarize): the SummarizeService the route is handed. The page
 * comes from the core Scraper, an abstractive summary from the LLM service, an extractive one from
 * TextRank (textrank.ts); it stores nothing of its own, so it has no config section, migrations or jobs.
 */
import type { InjectionToken } from 'tsyringe';
import { defineFeature, service } from '../../feature.ts';
import { CoreTokens } from '../../services.ts';
import { LlmTokens } from '../llm/tokens.ts';
import { SummarizeService } from './service.ts';

export const SummarizeTokens = {
  Service: Symbol('SummarizeService') as InjectionToken<SummarizeService>,
} as const;

export const summarizeFeature = defineFeature({
  name: 'summarize',
  description: 'Summaries (POST /v1/summarize): written by the configured language model (map-reduce over long pages), or the page\'s most central sentences by TextRank without one.',
  tokens: SummarizeTokens,
  services: [service(SummarizeTokens.Service, (ctx) => new SummarizeService({ scraper: ctx.resolve(CoreTokens.Scraper), llm: ctx.resolve(LlmTokens.Service) }))],
});
