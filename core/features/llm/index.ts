/**
 * The language-model feature: the `[llm]` section and the LlmService that extract, summarize, the
 * query format and /health use. The providers are `llm` plugins. It stores nothing, so it has no
 * migrations and no jobs.
 */
import { defineFeature, service, type FeatureContext } from '../../feature.ts';
import { CoreTokens } from '../../services.ts';
import { llmConfigSchema, type LlmSettings } from './config.ts';
import { LlmService } from './service.ts';
import { LlmTokens } from './tokens.ts';

export { LlmTokens };

export const llmFeature = defineFeature<LlmSettings>({
  name: 'llm',
  description: 'Language models: the provider chosen among the llm plugins, structured output checked against its schema, retries and rate limits.',
  config: llmConfigSchema,
  tokens: LlmTokens,
  services: [
    service(LlmTokens.Service, (ctx: FeatureContext<LlmSettings>) => new LlmService({ registry: ctx.resolve(CoreTokens.Registry), settings: ctx.settings, logger: ctx.logger })),
  ],
});
