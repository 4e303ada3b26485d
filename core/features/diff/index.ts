/**
 * The diff feature: POST /v1/diff's DiffService, and the comparison the watch feature shares
 * (normalise.ts: noise that never counts as change; compare.ts: the line diff and its summary;
 * page.ts: how a page version is read and made comparable).
 */
import type { InjectionToken } from 'tsyringe';
import { defineFeature, service } from '../../feature.ts';
import { CoreTokens, Tokens } from '../../tokens.ts';
import { DiffService } from './service.ts';

export const DiffTokens = {
  Service: Symbol('DiffService') as InjectionToken<DiffService>,
} as const;

export const diffFeature = defineFeature({
  name: 'diff',
  description: 'Content change tracking (POST /v1/diff): a page now against an earlier version.',
  costs: { diff: { credits: 1, description: 'POST /v1/diff, per call.' } },
  tokens: DiffTokens,
  services: [
    service(DiffTokens.Service, (ctx) => {
      const storesResults = ctx
        .resolve(CoreTokens.Registry)
        .providers('sink:results')
        .some((p) => p.enabled);
      return new DiffService(
        ctx.resolve(CoreTokens.Scraper),
        storesResults ? ctx.resolve(Tokens.Results) : null,
        ctx.resolve(CoreTokens.Content),
        ctx.config.scrape.timeoutMs,
      );
    }),
  ],
});
