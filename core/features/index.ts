/**
 * The built-in features, in order: what loadConfig validates sections for, whose migrations run and
 * whose services and job handlers createTrawl registers. An explicit list, like plugins/index.ts:
 * no directory globbing, no registration by import side effect. Adding a feature is one line here.
 */
import type { AnyFeature } from '../feature.ts';
import { accountsFeature } from './accounts/index.ts';
import { brandFeature } from './brand/index.ts';
import { crawlFeature } from './crawl/index.ts';
import { diffFeature } from './diff/index.ts';
import { endpointsFeature } from './endpoints/index.ts';
import { extractFeature } from './extract/index.ts';
import { leadFeature } from './lead/index.ts';
import { mapFeature } from './map/index.ts';
import { resultsFeature } from './results/index.ts';
import { notifyFeature } from './notify/index.ts';
import { searchFeature } from './search/index.ts';
import { socialFeature } from './social/index.ts';
import { summarizeFeature } from './summarize/index.ts';
import { watchFeature } from './watch/index.ts';
import { webhooksFeature } from './webhooks/index.ts';

export const builtinFeatures: readonly AnyFeature[] = [
  crawlFeature,
  mapFeature,
  searchFeature,
  webhooksFeature,
  notifyFeature,
  extractFeature,
  summarizeFeature,
  endpointsFeature,
  leadFeature,
  brandFeature,
  accountsFeature,
  diffFeature,
  watchFeature,
  socialFeature,
  resultsFeature,
];
