/**
 * The extract feature (POST /v1/extract): the endpoint family of core's extract engine
 * (core/llm/extract), which the `extract` format shares. The page comes from the core Scraper, the
 * answers from the language model; it stores nothing of its own, so it has no config section,
 * migrations or jobs.
 */
import { defineFeature } from '../../feature.ts';
import { EXTRACT_CREDITS } from '../../llm/extract/request.ts';

export const extractFeature = defineFeature({
  name: 'extract',
  description: "Structured extraction (POST /v1/extract): a page's text to JSON matching a given or generated JSON Schema.",
  costs: { extract: { credits: EXTRACT_CREDITS, description: 'POST /v1/extract, per call.' } },
});
