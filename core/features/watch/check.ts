/**
 * The `watch.check` job: scrape the watched page through the Scraper (main content, never from the
 * cache), compare its comparable form with the newest snapshot's under the watch's noise rules,
 * append a snapshot (`initial`, `same` or `changed`), prune the timeline to the retention, and on a
 * change announce `watch.changed` to the watch's `webhook_url` through the EventBus (signed,
 * retried, SSRF-checked like every delivery). Scheduled runs carry their slot (`due`), which the
 * snapshot records under a unique index, so a slot is checked once whatever happens to the jobs.
 * Transient failures are retried by the queue; the last one is recorded on the watch as
 * `last_error`, and the watch stays on its schedule.
 */
import type { Logger } from 'pino';
import { asTrawlError, TrawlError } from '../../errors.ts';
import { SKIPPED, type JobMeter } from '../../metering.ts';
import type { Scraper } from '../../scrape.ts';
import type { ClaimedJob, EventBus } from '../../services.ts';
import { nowIso } from '../../storage/values.ts';
import { compare, contentHash } from '../diff/compare.ts';
import { comparableOf, versionOf, versionRequest } from '../diff/page.ts';
import type { WatchSettings } from './config.ts';
import type { Snapshot, Watch, WatchStore } from './store.ts';

export const CHECK_JOB = 'watch.check';
export const CHANGED_EVENT = 'watch.changed';

const TRANSIENT = new Set(['fetch_failed', 'timeout', 'internal']);
const permanent = (err: TrawlError) => Object.assign(new TrawlError(err.code, err.message, { cause: err }), { permanent: true });

export interface CheckPayload {
  subject: string;
  /** The schedule slot (scheduled checks only). */
  due?: string;
}

function payloadOf(job: ClaimedJob): CheckPayload {
  const { subject, due } = job.payload;
  if (typeof subject !== 'string') throw permanent(new TrawlError('internal', `${CHECK_JOB} job without a subject`));
  return { subject, ...(typeof due === 'string' ? { due } : {}) };
}

export interface CheckDeps {
  store: WatchStore;
  scraper: Scraper;
  events: () => EventBus | null;
  settings: WatchSettings;
  logger: Logger;
}

/** The spec's `watch.changed` payload. */
export function changedPayload(watch: Watch, snapshot: Snapshot) {
  return {
    event: CHANGED_EVENT,
    watch_id: watch.id,
    url: watch.url,
    summary: snapshot.diffSummary ?? '',
    word_count_delta: snapshot.wordCountDelta,
    checked_at: snapshot.checkedAt,
  };
}

export function createCheckWorker(deps: CheckDeps) {
  const { store, settings } = deps;

  async function handle(job: ClaimedJob, signal: AbortSignal): Promise<void | typeof SKIPPED> {
    const payload = payloadOf(job);
    const watch = await store.byId(payload.subject);
    // Deleted, or paused after its slot was claimed.
    if (!watch || (payload.due && !watch.active)) return SKIPPED;

    let outcome;
    try {
      outcome = await deps.scraper.scrape(versionRequest(watch.url, watch.ignoreSelectors), watch.workspace, signal);
    } catch (err) {
      const error = asTrawlError(err);
      throw signal.aborted || TRANSIENT.has(error.code) ? error : permanent(error);
    }
    const status = outcome.result.metadata.statusCode ?? 200;
    if (status === 429 || status >= 500) throw new TrawlError('fetch_failed', `The server answered HTTP ${status}`);

    const version = versionOf(outcome.result);
    const rules = { ignoreText: watch.ignoreText };
    const current = comparableOf(version, rules);
    const previous = await store.latestWithContent(watch.id);
    const comparison = previous ? compare(comparableOf({ markdown: previous.markdown, wordCount: previous.snapshot.wordCount }, rules), current) : null;
    const snapshot = await store.appendSnapshot(watch.workspace, {
      watchId: watch.id,
      contentHash: contentHash(current.text),
      wordCount: version.wordCount,
      status: !comparison ? 'initial' : comparison.changed ? 'changed' : 'same',
      title: version.title,
      diffSummary: comparison?.changed ? comparison.summary : null,
      wordCountDelta: comparison?.wordCountDelta ?? 0,
      linksAdded: comparison?.linksAdded ?? 0,
      linksRemoved: comparison?.linksRemoved ?? 0,
      dueAt: payload.due ?? null,
      checkedAt: nowIso(),
    }, version.markdown);
    // The slot already has its snapshot (a duplicate run), or the watch was deleted meanwhile.
    if (!snapshot) return SKIPPED;
    await store.prune(watch.id, settings.snapshotRetention);
    if (snapshot.status === 'changed' && watch.webhookUrl) {
      const bus = deps.events();
      if (bus) await bus.emit({ type: CHANGED_EVENT, workspace: watch.workspace, url: watch.webhookUrl, data: changedPayload(watch, snapshot), bare: true });
      else deps.logger.debug({ watch: watch.id }, 'no event bus registered; watch.changed not sent');
    }
  }

  /** The last attempt failed: say why on the watch; its schedule goes on. */
  async function onFailed(job: ClaimedJob, error: string): Promise<void> {
    const { subject } = payloadOf(job);
    await store.recordFailure(subject, error, nowIso());
  }

  return { handle, onFailed };
}

/** Cloud mode: one `watchCheck` per check, scheduled or manual, on a usage row of its own. */
export function checkMeter(store: WatchStore): JobMeter {
  return {
    ownRun: true,
    async bill(job) {
      const watch = await store.byId(payloadOf(job).subject);
      if (!watch) return null;
      return { run: { workspace: watch.workspace, runId: job.id, endpoint: 'watch.check', url: watch.url }, units: { watchCheck: 1 } };
    },
    async exhausted(job) {
      await store.recordFailure(payloadOf(job).subject, 'Insufficient credits: the check was not run', null);
    },
  };
}
