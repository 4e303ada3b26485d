/**
 * The built-in route modules, in mounting order: what server/app.ts serves and server/openapi.ts
 * documents (those whose `mounted` says so). An explicit list, like plugins/index.ts; adding an
 * endpoint family is one line here.
 */
import type { AnyRouteModule } from '../route.ts';
import { adminModule } from './admin.ts';
import { healthModule } from './health.ts';
import { accountModule } from './v1/account.ts';
import { batchModule } from './v1/batch.ts';
import { brandModule } from './v1/brand.ts';
import { crawlModule } from './v1/crawl.ts';
import { diffModule } from './v1/diff.ts';
import { endpointsModule } from './v1/endpoints.ts';
import { extractModule } from './v1/extract.ts';
import { leadModule } from './v1/lead.ts';
import { mapModule } from './v1/map.ts';
import { pluginsModule } from './v1/plugins.ts';
import { resultsModule } from './v1/results.ts';
import { scrapeModule } from './v1/scrape.ts';
import { socialModule } from './v1/social.ts';
import { searchModule } from './v1/search.ts';
import { summarizeModule } from './v1/summarize.ts';
import { usageModule } from './v1/usage.ts';
import { watchFeedModule } from './v1/watch-feed.ts';
import { watchModule } from './v1/watch.ts';
import { webhooksModule } from './v1/webhooks.ts';
import { v2MapModule } from './v2/map.ts';
import { v2RunsModule } from './v2/runs.ts';
import { v2ScrapeModule } from './v2/scrape.ts';
import { v2SearchModule } from './v2/search.ts';

export const builtinRoutes: readonly AnyRouteModule[] = [
  scrapeModule,
  pluginsModule,
  healthModule,
  mapModule,
  webhooksModule,
  crawlModule,
  batchModule,
  searchModule,
  extractModule,
  summarizeModule,
  endpointsModule,
  leadModule,
  brandModule,
  diffModule,
  watchFeedModule,
  watchModule,
  socialModule,
  accountModule,
  // Firecrawl's v2 wire format over the same features (server/wire/v2).
  v2ScrapeModule,
  v2RunsModule,
  v2MapModule,
  v2SearchModule,
  // Cloud mode only (each module says when it is served): results, usage, and the admin API.
  resultsModule,
  usageModule,
  adminModule,
];
