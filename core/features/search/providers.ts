/**
 * The `search` kind's run mode: the enabled providers are asked in config order until one answers
 * with results. A provider that fails (key rejected, rate limited, a CAPTCHA page …) or finds
 * nothing hands over to the next, and each such outcome becomes a warning, so an answer always
 * says why it came from the provider it came from. When every provider failed the call fails with
 * every reason: 503 with the soonest Retry-After when all of them are only rate limited, else 502.
 * The winning list is cleaned here, once for all providers: http(s) URLs only, one entry per page
 * (the URL module's dedupe key), at most `limit`, positions renumbered 1…n.
 */
import { TrawlError } from '../../errors.ts';
import { normalizeUrl } from '../../net/url.ts';
import type { SearchHandler, SearchHit, SearchQuery } from '../../plugin.ts';

export interface Provider {
  id: string;
  handler: SearchHandler;
}

export interface ProviderAnswer {
  /** The plugin id of the provider that answered. */
  provider: string;
  hits: SearchHit[];
  warnings: string[];
}

const MAX_TITLE_CHARS = 500;
const MAX_DESCRIPTION_CHARS = 2000;

const clip = (text: unknown, max: number) => (typeof text === 'string' ? text.replace(/\s+/g, ' ').trim().slice(0, max) : '');

/** The usable hits, best first: http(s), one per page, at most `limit`, positions 1…n. */
export function cleanHits(hits: readonly SearchHit[], limit: number): { hits: SearchHit[]; dropped: number } {
  const seen = new Set<string>();
  const out: SearchHit[] = [];
  let dropped = 0;
  for (const hit of hits) {
    if (out.length >= limit) break;
    const url = normalizeUrl(typeof hit.url === 'string' ? hit.url : null);
    if (!url) {
      dropped++;
      continue;
    }
    if (seen.has(url.key)) continue;
    seen.add(url.key);
    out.push({
      url: url.url,
      title: clip(hit.title, MAX_TITLE_CHARS),
      description: clip(hit.description, MAX_DESCRIPTION_CHARS),
      position: out.length + 1,
    });
  }
  return { hits: out, dropped };
}

export async function askProviders(providers: readonly Provider[], query: SearchQuery): Promise<ProviderAnswer> {
  const warnings: string[] = [];
  const failures: Array<{ id: string; message: string; retryAfterSeconds?: number }> = [];
  let emptyFrom: string | null = null;
  for (const { id, handler } of providers) {
    if (query.signal.aborted) throw query.signal.reason;
    try {
      const answer = await handler.search(query);
      for (const warning of answer.warnings ?? []) warnings.push(`${id}: ${warning}`);
      const { hits, dropped } = cleanHits(answer.hits, query.limit);
      if (dropped) warnings.push(`${id}: ${dropped} result${dropped > 1 ? 's' : ''} without an http(s) URL left out`);
      if (hits.length) return { provider: id, hits, warnings };
      warnings.push(`${id}: no results for this query`);
      emptyFrom ??= id;
    } catch (err) {
      if (query.signal.aborted) throw query.signal.reason;
      const message = err instanceof Error ? err.message : String(err);
      const retryAfterSeconds = err instanceof TrawlError ? err.retryAfterSeconds : undefined;
      failures.push({ id, message, retryAfterSeconds });
      warnings.push(`${id}: ${message}`);
    }
  }
  // Someone answered and found nothing: an answer, with every provider's outcome said.
  if (emptyFrom) return { provider: emptyFrom, hits: [], warnings };
  const reasons = failures.map((f) => `${f.id}: ${f.message}`).join('; ');
  const waits = failures.map((f) => f.retryAfterSeconds);
  if (waits.every((s): s is number => s !== undefined && s > 0)) {
    throw new TrawlError('unavailable', `Every search provider is rate limited: ${reasons}`, { retryAfterSeconds: Math.min(...waits) });
  }
  throw new TrawlError('bad_gateway', `Every search provider failed: ${reasons}`);
}
