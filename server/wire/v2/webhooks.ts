/**
 * Firecrawl's webhook bodies for /v2 crawls and batch scrapes: `{success, type, id, webhookId,
 * data, error?, metadata}` with `type` `crawl.started|page|completed|failed` or
 * `batch_scrape.started|page|completed|failed`; a page event carries the page as a v2 Document (a
 * failed page: `success: false` and its `error`), and `metadata` is what the request gave. The
 * server hands this format to core at boot (server/boot.ts), so worker processes send it too.
 */
import type { RunHookFormat, RunHookFormats } from '../../../core/features/crawl/hooks.ts';
import { storedRequest } from '../../../core/features/crawl/legacy.ts';
import { presentDocument } from './present.ts';

/** The name /v2 requests store with their hook. */
export const V2_HOOK_FORMAT = 'firecrawl-v2';

export const v2HookFormat: RunHookFormat = {
  signature: 'firecrawl',
  render({ type, run, hook, page }) {
    const prefix = run.kind === 'crawl' ? 'crawl' : 'batch_scrape';
    const options = storedRequest(run.kind, run.request).scrapeOptions;
    const data = page?.result ? [presentDocument(page.result, options, page.url)] : [];
    const error =
      type === 'page'
        ? page?.result
          ? undefined
          : (page?.error ?? 'The page could not be scraped')
        : type === 'failed'
          ? (run.error ?? 'The run failed')
          : undefined;
    return {
      success: error === undefined,
      type: `${prefix}.${type}`,
      id: run.id,
      webhookId: crypto.randomUUID(),
      data,
      ...(error !== undefined ? { error } : {}),
      metadata: hook.metadata,
    };
  },
};

/** Every wire format's run webhooks, by the name requests store. */
export const runHookFormats: RunHookFormats = { [V2_HOOK_FORMAT]: v2HookFormat };
