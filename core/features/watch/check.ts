/**
 * The `watch.check` job: scrape the watched page through the Scraper (main content or the parts
 * the watch includes, never from the cache), compare it with the newest snapshot under the watch's
 * noise rules, read what conditions and restock need (observe.ts) and decide whether to notify and
 * why (decide.ts) — that CPU work in a content worker (examine.ts), never on the server thread —,
 * append a snapshot (`initial`, `same` or `changed`, with `notified`, `reason` and a word-diff
 * `excerpt`), prune the timeline to the retention, and when it notifies announce
 * `watch.changed` to the watch's `webhook_url` and `notify` targets (notify.ts: signed, retried,
 * SSRF-checked like every delivery). Scheduled runs carry their slot (`due`), which the
 * snapshot records under a unique index, so a slot is checked once whatever happens to the jobs.
 * Transient failures are retried by the queue; the last one is recorded on the watch as
 * `last_error`, and the watch stays on its schedule.
 */
import type { Logger } from 'pino';
import { asTrawlError, TrawlError } from '../../errors.ts';
import { SKIPPED, skippedCheck, type JobMeter } from '../../metering.ts';
import type { Scraper } from '../../scrape.ts';
import type { ClaimedJob } from '../../services.ts';
import { nowIso } from '../../storage/values.ts';
import type { ContentRunner } from '../../content-runner.ts';
import { versionOf, versionRequest } from '../diff/page.ts';
import { offThread } from '../diff/task.ts';
import type { WatchSettings } from './config.ts';
import { examine, EXAMINE_TASK, type ExamineInput } from './examine.ts';
import type { Announcer } from './notify.ts';
import type { WatchStore } from './store.ts';

export const CHECK_JOB = 'watch.check';

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
  /** Sends `watch.changed` to the webhook_url and the notify targets (notify.ts). */
  announcer: Pick<Announcer, 'announce'>;
  settings: WatchSettings;
  logger: Logger;
  /** Where the comparison runs (a content worker, examine.ts), and its deadline (`scrape.timeoutMs`). */
  content: ContentRunner;
  timeoutMs: number;
}

export function createCheckWorker(deps: CheckDeps) {
  const { store, settings } = deps;

  async function handle(job: ClaimedJob, signal: AbortSignal): Promise<void | typeof SKIPPED> {
    const payload = payloadOf(job);
    const watch = await store.byId(payload.subject);
    // Deleted, or paused after its slot was claimed.
    if (!watch || (payload.due && !watch.active)) return SKIPPED;

    const needsHtml = watch.conditions.length > 0 || watch.restock;
    const request = versionRequest(watch.url, {
      ignoreSelectors: watch.ignoreSelectors,
      includeSelectors: watch.includeSelectors,
      html: needsHtml,
    });
    let outcome: Awaited<ReturnType<typeof deps.scraper.scrape>>;
    try {
      outcome = await deps.scraper.scrape(request, watch.workspace, signal);
    } catch (err) {
      const error = asTrawlError(err);
      throw signal.aborted || TRANSIENT.has(error.code) ? error : permanent(error);
    }
    const status = outcome.result.metadata.statusCode ?? 200;
    if (status === 429 || status >= 500) throw new TrawlError('fetch_failed', `The server answered HTTP ${status}`);

    const checkedAt = nowIso();
    const version = versionOf(outcome.result);
    const previous = await store.latestWithContent(watch.id);
    const input: ExamineInput = {
      filters: watch,
      version,
      checkedAt: Date.parse(checkedAt),
      previous: previous && {
        markdown: previous.markdown,
        wordCount: previous.snapshot.wordCount,
        checkedAt: Date.parse(previous.snapshot.checkedAt),
        observed: previous.snapshot.observed,
      },
      seen: watch.onlyNewLines ? await store.seenLines(watch.id) : [],
      seenLinesKept: settings.seenLinesKept,
    };
    const examined = await offThread(
      deps.content,
      EXAMINE_TASK,
      input,
      () => examine(input),
      deps.timeoutMs,
      signal,
      'Comparing the check with the previous snapshot',
    );
    const { comparison, decision, observed, remembered, contentHash } = examined;
    const snapshot = await store.appendSnapshot(
      watch.workspace,
      {
        watchId: watch.id,
        contentHash,
        wordCount: version.wordCount,
        status: !comparison ? 'initial' : comparison.changed ? 'changed' : 'same',
        title: version.title,
        diffSummary: comparison?.changed ? comparison.summary : null,
        wordCountDelta: comparison?.wordCountDelta ?? 0,
        linksAdded: comparison?.linksAdded ?? 0,
        linksRemoved: comparison?.linksRemoved ?? 0,
        notified: decision.notified,
        reason: decision.reason,
        excerpt: decision.excerpt || null,
        observed,
        dueAt: payload.due ?? null,
        checkedAt,
      },
      version.markdown,
      remembered,
    );
    // The slot already has its snapshot (a duplicate run), or the watch was deleted meanwhile.
    if (!snapshot) return SKIPPED;
    await store.prune(watch.id, settings.snapshotRetention);
    if (snapshot.notified) await deps.announcer.announce(watch, snapshot);
  }

  /** The last attempt failed: say why on the watch; its schedule goes on. */
  async function onFailed(job: ClaimedJob, error: string): Promise<void> {
    const { subject } = payloadOf(job);
    await store.recordFailure(subject, error, nowIso());
  }

  return { handle, onFailed };
}

/** Cloud mode: one `watchCheck` per check, scheduled or manual, on a usage row of its own; none while the workspace's plan has lapsed. */
export function checkMeter(store: WatchStore): JobMeter {
  return {
    ownRun: true,
    async bill(job) {
      const watch = await store.byId(payloadOf(job).subject);
      if (!watch) return null;
      return { run: { workspace: watch.workspace, runId: job.id, endpoint: 'watch.check', url: watch.url }, units: { watchCheck: 1 } };
    },
    async refused(job, _run, refusal) {
      // Not checked: last_checked_at stays; the watch stays on its schedule and runs again once the workspace can pay.
      await store.recordFailure(payloadOf(job).subject, skippedCheck(refusal, 'Watches'), null);
    },
  };
}
