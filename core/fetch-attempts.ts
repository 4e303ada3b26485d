/**
 * The fetch stage's attempts. A plain request is one attempt. `proxy: "auto"` escalates: the
 * default route first; after a block, once through a fetcher that renders (a real browser passes
 * many challenges) and then through each configured proxy pool in order; after a refused or failed
 * connection, straight to the next route. Every attempt is a fresh document, so the page that
 * succeeds carries nothing of the ones before it but a warning per earlier attempt. A page still
 * blocked at the end is an error (`blocked`), never content: nothing after the fetch runs, so
 * nothing is stored, cached or charged.
 */
import { PageDocument } from './document.ts';
import { FETCH_PROXY } from './data-bag.ts';
import { asTrawlError, TrawlError, type BlockedDetails } from './errors.ts';
import type { Job } from './job.ts';
import type { FetcherHandler } from './plugin.ts';
import type { BlockerHandler } from './kinds/blocker.ts';
import { blockedError, recogniseBlock } from './blocked.ts';
import { fetchFailureReason } from './net/fetch-reasons.ts';
import { stage } from './content-stages.ts';
import type { Metrics } from './metrics.ts';

export interface FetcherEntry {
  id: string;
  handler: FetcherHandler;
}

interface Attempt {
  fetcher: FetcherEntry;
  /** The proxy choice overriding the request's; unset: the request's (auto: the default route). */
  proxy?: string;
  label: string;
}

/** Connection failures another route may not have; a refusal by the SSRF guard is never retried. */
const ROUTE_FAILURES = new Set(['connection_refused', 'connection_reset', 'timeout', 'unreachable', 'dns', 'proxy_refused']);

/** The proxy choice a fetcher uses for this document: the attempt's override, else the request's. */
export function fetchProxy(doc: PageDocument): string | undefined {
  return doc.data.get(FETCH_PROXY) ?? doc.job.request.proxy;
}

export function plannedAttempts(job: Job, chosen: FetcherEntry, renderer: FetcherEntry | null, pools: readonly string[]): Attempt[] {
  const first: Attempt = { fetcher: chosen, label: 'the default route' };
  if (job.request.proxy !== 'auto') return [first];
  const strongest = renderer && renderer !== chosen && job.request.render !== false ? renderer : chosen;
  const attempts = [first];
  if (strongest !== chosen) attempts.push({ fetcher: strongest, label: 'the browser' });
  const how = strongest === chosen ? '' : ' in the browser';
  for (const pool of pools) attempts.push({ fetcher: strongest, proxy: pool, label: `proxy pool "${pool}"${how}` });
  return attempts;
}

export interface AttemptDeps {
  blockers: ReadonlyArray<{ handler: BlockerHandler }>;
  fetchWith(doc: PageDocument, fetcher: FetcherEntry): Promise<void>;
  metrics?: Metrics;
}

/** Runs the attempts in order and returns the first document that is not a block. */
export async function fetchWithAttempts(job: Job, attempts: readonly Attempt[], deps: AttemptDeps): Promise<PageDocument> {
  const notes: Array<{ plugin: string; message: string }> = [];
  const tried: string[] = [];
  let spentMs = 0;
  let failedRoute: string | null = null;
  let blocked: TrawlError | null = null;
  for (const [index, attempt] of attempts.entries()) {
    const route = attempt.proxy ?? 'default';
    // The connection failed on this route: a different fetcher over it would fail the same way.
    if (route === failedRoute) continue;
    const doc = new PageDocument(job);
    if (attempt.proxy) doc.data.set(FETCH_PROXY, attempt.proxy);
    try {
      await stage(doc, 'fetch', () => deps.fetchWith(doc, attempt.fetcher));
    } catch (err) {
      spentMs += doc.timings.fetch ?? 0;
      if (job.signal.aborted) throw err;
      tried.push(`${attempt.label}: ${asTrawlError(err).message}`);
      const otherRoute = attempts.slice(index + 1).some((next) => (next.proxy ?? 'default') !== route);
      if (!otherRoute || !ROUTE_FAILURES.has(fetchFailureReason(err))) {
        if (!blocked) throw err;
        // An earlier route was blocked: that is what the page does; the failure only ended the escalation.
        (blocked.details as BlockedDetails).attempts = [...tried];
        throw blocked;
      }
      failedRoute = route;
      notes.push({
        plugin: attempt.fetcher.id,
        message: `Fetching through ${attempt.label} failed (${asTrawlError(err).message}); tried the next route`,
      });
      continue;
    }
    const verdict = recogniseBlock(deps.blockers, doc.response, deps.metrics);
    if (!verdict) {
      doc.timings.fetch = (doc.timings.fetch ?? 0) + spentMs;
      for (const note of notes) doc.warn('fetch', note.plugin, note.message);
      return doc;
    }
    spentMs += doc.timings.fetch ?? 0;
    const status = doc.response?.status ?? 0;
    tried.push(`${attempt.label}: blocked by ${verdict.vendor} (${verdict.kind}, HTTP ${status})`);
    notes.push({
      plugin: attempt.fetcher.id,
      message: `Blocked by ${verdict.vendor} (${verdict.kind}) through ${attempt.label}; tried the next route`,
    });
    blocked = blockedError(verdict, doc.response, tried.length > 1 ? tried : undefined);
    blocked.pluginId = attempt.fetcher.id;
  }
  // Every attempt that ran was blocked (the ones after a failed connection on its route were skipped).
  if (blocked) throw blocked;
  throw new TrawlError('internal', 'no fetch attempt ran');
}
