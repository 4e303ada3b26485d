/**
 * The `social.check` job: ask the configured social source for the monitor's posts newer than its
 * cursor, keep those passing every filter (re-checked here whatever the source applied), move the
 * cursor, and announce `social.monitor.matched` to the monitor's `webhook_url` — natively formatted
 * for a chat platform (chat.ts), the spec's payload signed like every delivery otherwise. The first
 * check only sets the cursor: posts from before the monitor existed are not news. A source at its
 * rate limit is not a failure: the check is queued again for the reset and this run is refunded.
 */
import type { Logger } from 'pino';
import { asTrawlError, TrawlError } from '../../errors.ts';
import type { DbJobQueue } from '../../jobs/queue.ts';
import { SKIPPED, skippedCheck, type JobMeter } from '../../metering.ts';
import type { SocialHandler, SocialPost } from '../../plugin.ts';
import { isQuotaSpent } from '../../kinds/social.ts';
import type { ClaimedJob, EventBus } from '../../services.ts';
import { nowIso } from '../../storage/values.ts';
import { chatMessages } from './chat.ts';
import type { SocialSettings } from './config.ts';
import type { Monitor, MonitorStore } from './store.ts';

export const CHECK_JOB = 'social.check';
export const MATCHED_EVENT = 'social.monitor.matched';

const TRANSIENT = new Set(['bad_gateway', 'gateway_timeout', 'timeout', 'internal', 'fetch_failed']);
const permanent = (err: TrawlError) => Object.assign(new TrawlError(err.code, err.message, { cause: err }), { permanent: true });

function subjectOf(job: ClaimedJob): { subject: string; due?: string } {
  const { subject, due } = job.payload;
  if (typeof subject !== 'string') throw permanent(new TrawlError('internal', `${CHECK_JOB} job without a subject`));
  return { subject, ...(typeof due === 'string' ? { due } : {}) };
}

/** Whether a post passes every filter of the monitor. */
export function passes(post: SocialPost, m: Monitor): boolean {
  if ((post.isRetweet && !m.includeRetweets) || (post.isReply && !m.includeReplies) || (post.isQuote && !m.includeQuotes)) return false;
  if (post.favoriteCount < m.minFaves) return false;
  if (m.keyword && !post.text.toLowerCase().includes(m.keyword.toLowerCase())) return false;
  return !m.lang || post.lang.toLowerCase() === m.lang.toLowerCase();
}

/** A post as the spec's Tweet object. */
export const presentPost = (p: SocialPost) => ({
  id: p.id,
  screen_name: p.screenName,
  text: p.text,
  url: p.url,
  created_at: p.createdAt,
  favorite_count: p.favoriteCount,
  retweet_count: p.retweetCount,
  reply_count: p.replyCount,
  lang: p.lang,
  is_retweet: p.isRetweet,
  is_reply: p.isReply,
  is_quote: p.isQuote,
});

/** The spec's `social.monitor.matched` payload. */
export const matchedPayload = (m: Monitor, posts: SocialPost[], checkedAt: string) => ({
  event: MATCHED_EVENT,
  monitor_id: m.id,
  kind: m.kind,
  target: m.target,
  new_count: posts.length,
  tweets: posts.map(presentPost),
  checked_at: checkedAt,
});

export interface CheckDeps {
  store: MonitorStore;
  /** The social source that serves monitors, or null when none is configured. */
  source: () => SocialHandler | null;
  queue: () => DbJobQueue;
  events: () => EventBus | null;
  settings: SocialSettings;
  logger: Logger;
  /** Stops the monitor's schedule, saying why (SocialService.pause). */
  pause: Pause;
  now?: () => number;
}

type Pause = (m: Pick<Monitor, 'workspace' | 'id'>, reason: string) => Promise<void>;

export function createCheckWorker(deps: CheckDeps) {
  const now = deps.now ?? Date.now;

  async function announce(m: Monitor, posts: SocialPost[], checkedAt: string): Promise<void> {
    const bus = deps.events();
    if (!bus) return deps.logger.debug({ monitor: m.id }, 'no event bus registered; social.monitor.matched not sent');
    const chat = chatMessages(m.webhookUrl!, m, posts, deps.settings.chatPostsPerMessage);
    if (!chat)
      return bus.emit({
        type: MATCHED_EVENT,
        workspace: m.workspace,
        url: m.webhookUrl!,
        data: matchedPayload(m, posts, checkedAt),
        bare: true,
      });
    for (const body of chat)
      await bus.deliver({
        workspace: m.workspace,
        event: MATCHED_EVENT,
        url: m.webhookUrl!,
        body: JSON.stringify(body),
        headers: {},
        signature: 'none',
      });
  }

  async function handle(job: ClaimedJob, signal: AbortSignal): Promise<void | typeof SKIPPED> {
    const { subject, due } = subjectOf(job);
    const monitor = await deps.store.byId(subject);
    if (!monitor || (due && !monitor.active)) return SKIPPED;
    const source = deps.source();
    if (!source) throw permanent(new TrawlError('unavailable', 'No social source is configured'));
    const first = monitor.lastCheckedAt === null;
    let result: Awaited<ReturnType<typeof source.posts>>;
    let sourceId = monitor.sourceId;
    try {
      sourceId ??= monitor.kind === 'profile' ? await source.resolveHandle(monitor.target, signal) : monitor.target;
      result = await source.posts({ kind: monitor.kind, target: sourceId, since: first ? null : monitor.cursor, filters: monitor, signal });
    } catch (err) {
      const error = asTrawlError(err);
      if (error.code === 'rate_limited' && !signal.aborted) {
        const runAt = new Date(now() + (error.retryAfterSeconds ?? 60) * 1000);
        await deps
          .queue()
          .enqueue({ kind: CHECK_JOB, workspace: monitor.workspace, payload: { subject }, runAt, maxAttempts: deps.settings.maxAttempts });
        await deps.store.recordError(subject, `${error.message}; checking again at ${runAt.toISOString()}`);
        return SKIPPED;
      }
      // Spent until the operator acts: every scheduled check would fail the same way.
      if (isQuotaSpent(error)) {
        await deps.pause(monitor, error.message);
        return SKIPPED;
      }
      throw signal.aborted || TRANSIENT.has(error.code) ? error : permanent(error);
    }
    const checkedAt = nowIso();
    const matched = first ? [] : result.posts.filter((p) => passes(p, monitor));
    await deps.store.recordCheck(subject, {
      cursor: result.cursor,
      sourceId: monitor.kind === 'profile' ? sourceId : null,
      checkedAt,
      matched: matched.length > 0,
    });
    if (matched.length && monitor.webhookUrl) await announce(monitor, matched, checkedAt);
  }

  /** The last attempt failed: say why on the monitor; its schedule goes on. */
  async function onFailed(job: ClaimedJob, error: string): Promise<void> {
    await deps.store.recordError(subjectOf(job).subject, error);
  }

  return { handle, onFailed };
}

/**
 * Cloud mode: one `socialCheck` (the plan rate) per check, scheduled or manual, on a usage row of
 * its own; none while the workspace is lapsed or free.
 */
export function checkMeter(store: MonitorStore, pause: Pause): JobMeter {
  return {
    ownRun: true,
    async bill(job) {
      const m = await store.byId(subjectOf(job).subject);
      if (!m) return null;
      return {
        run: { workspace: m.workspace, runId: job.id, endpoint: 'social.check', url: `social:${m.kind}:${m.target}`.slice(0, 500) },
        units: { socialCheck: 1 },
      };
    },
    async refused(job, run, refusal) {
      // Out of credits: paused, not failing on every scheduled check until someone looks.
      if (refusal === 'credits')
        return pause({ id: subjectOf(job).subject, workspace: run.workspace }, skippedCheck(refusal, 'Social monitoring'));
      // Lapsed or free: the source is not asked (nor its quota spent); the monitor stays on its schedule and resumes with the plan.
      await store.recordError(subjectOf(job).subject, skippedCheck(refusal, 'Social monitoring'));
    },
  };
}
