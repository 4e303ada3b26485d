/**
 * The social service behind /v1/social: monitors (create with its place on the shared schedule and
 * its first check in one transaction, list, get, update — interval and `active` move the schedule
 * —, delete, manual checks) and audience export. Audience cursors are opaque to the caller: they
 * wrap the source's page token with the account and direction it belongs to, so a cursor cannot be
 * replayed against another account.
 */
import { badRequest, TrawlError } from '../../errors.ts';
import type { DbJobQueue } from '../../jobs/queue.ts';
import type { Scheduler } from '../../jobs/scheduler.ts';
import type { SocialHandler, SocialUser } from '../../plugin.ts';
import { CHECK_JOB } from './check.ts';
import type { SocialSettings } from './config.ts';
import type { Monitor, MonitorPatch, MonitorStore, NewMonitor } from './store.ts';
import type { Window } from '../../storage/values.ts';

export interface SocialServiceDeps {
  store: MonitorStore;
  queue: DbJobQueue;
  scheduler: Scheduler;
  settings: SocialSettings;
  source: () => SocialHandler | null;
}

export type AudienceDirection = 'followers' | 'following';

export interface AudienceRequest {
  handle?: string;
  userId?: string;
  direction: AudienceDirection;
  cursor?: string;
  maxPages: number;
}

export interface AudienceAnswer {
  userId: string;
  direction: AudienceDirection;
  users: SocialUser[];
  nextCursor: string | null;
  pagesFetched: number;
  /** Why the walk stopped before `maxPages` when a page after the first failed (`nextCursor` retries it). */
  error?: string;
}

/** Said by every social call when no source is configured (503). */
export const NO_SOURCE =
  'No social source is configured: set plugins.social.x.bearerToken (TRAWL_PLUGINS_SOCIAL_X_BEARER_TOKEN) to an API v2 app-only bearer token';

const notFound = () => new TrawlError('not_found', 'Monitor not found');

function encodeCursor(userId: string, direction: AudienceDirection, token: string): string {
  return Buffer.from(JSON.stringify([userId, direction, token])).toString('base64url');
}

function decodeCursor(cursor: string, userId: string, direction: AudienceDirection): string {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parts = null;
  }
  if (!Array.isArray(parts) || parts.length !== 3 || typeof parts[2] !== 'string')
    throw badRequest('Invalid field cursor: not a cursor this service returned');
  if (parts[0] !== userId || parts[1] !== direction) throw badRequest('Invalid field cursor: it belongs to another account or direction');
  return parts[2];
}

export class SocialService {
  constructor(private readonly deps: SocialServiceDeps) {}

  /** The source, or 503 saying what to configure. */
  source(): SocialHandler {
    const source = this.deps.source();
    if (!source) throw new TrawlError('unavailable', NO_SOURCE);
    return source;
  }

  private checkSpec(m: Monitor) {
    return { kind: CHECK_JOB, workspace: m.workspace, payload: { subject: m.id }, maxAttempts: this.deps.settings.maxAttempts };
  }

  async create(workspace: string, input: NewMonitor): Promise<Monitor> {
    const { settings, scheduler, queue, store } = this.deps;
    this.source();
    const monitor = await store.db.transaction().execute(async (trx) => {
      if ((await store.count(workspace, trx)) >= settings.maxPerWorkspace) {
        throw new TrawlError('conflict', `Monitor limit reached: at most ${settings.maxPerWorkspace} social monitors per workspace`);
      }
      const created = await store.insert(trx, workspace, input);
      await scheduler.put(trx, { kind: CHECK_JOB, subject: created.id, workspace, intervalSeconds: created.intervalMinutes * 60 });
      // The first check runs at once: it sets the cursor.
      await queue.insert(trx, [this.checkSpec(created)]);
      return created;
    });
    queue.poke([CHECK_JOB]);
    return monitor;
  }

  list(workspace: string, query: Window): Promise<{ items: Monitor[]; total: number }> {
    return this.deps.store.list(workspace, query);
  }

  async get(workspace: string, id: string): Promise<Monitor> {
    const monitor = await this.deps.store.get(workspace, id);
    if (!monitor) throw notFound();
    return monitor;
  }

  async update(workspace: string, id: string, patch: MonitorPatch): Promise<Monitor> {
    const { scheduler, store } = this.deps;
    const updated = await store.db.transaction().execute(async (trx) => {
      const m = await store.update(trx, workspace, id, patch);
      if (!m) return null;
      if (patch.intervalMinutes !== undefined)
        await scheduler.put(trx, { kind: CHECK_JOB, subject: id, workspace, intervalSeconds: m.intervalMinutes * 60 });
      if (patch.active !== undefined) await scheduler.setActive(trx, CHECK_JOB, id, patch.active);
      return m;
    });
    if (!updated) throw notFound();
    return updated;
  }

  /**
   * Stops a monitor's schedule and says why on it (`active: false`, `last_error`): a check that
   * cannot be paid for — the workspace's credits or the source's usage cap — would fail the same
   * way on every run. PATCH `active: true` resumes it.
   */
  async pause(workspace: string, id: string, reason: string): Promise<void> {
    await this.update(workspace, id, { active: false }).catch((err) =>
      err instanceof TrawlError && err.code === 'not_found' ? null : Promise.reject(err),
    );
    await this.deps.store.recordError(id, `Paused: ${reason}; set active to true to resume`);
  }

  async delete(workspace: string, id: string): Promise<void> {
    const deleted = await this.deps.store.db.transaction().execute(async (trx) => {
      if (!(await this.deps.store.delete(trx, workspace, id))) return false;
      await this.deps.scheduler.remove(trx, CHECK_JOB, id);
      return true;
    });
    if (!deleted) throw notFound();
  }

  /** Queues a check now (also of a paused monitor: the caller asked for it). */
  async check(workspace: string, id: string): Promise<void> {
    this.source();
    await this.deps.queue.enqueue(this.checkSpec(await this.get(workspace, id)));
  }

  /**
   * Up to `maxPages` audience pages from the cursor; the handle is resolved once, before any page.
   * A failed first page is the call's error; a later one ends the walk with what it got.
   */
  async audience(request: AudienceRequest, signal: AbortSignal): Promise<AudienceAnswer> {
    const source = this.source();
    const userId = request.userId ?? (await source.resolveHandle(request.handle!.replace(/^@/, ''), signal));
    let token: string | null = request.cursor ? decodeCursor(request.cursor, userId, request.direction) : null;
    const users: SocialUser[] = [];
    let pagesFetched = 0;
    let error: string | undefined;
    do {
      let page: Awaited<ReturnType<typeof source.audience>>;
      try {
        page = await source.audience(userId, request.direction, token, signal);
      } catch (err) {
        // The pages already fetched are served (and paid for); the rest is given back and the cursor resumes here.
        if (pagesFetched === 0 || signal.aborted) throw err;
        error = `Stopped after ${pagesFetched} page${pagesFetched > 1 ? 's' : ''}: ${(err as Error).message}`;
        break;
      }
      pagesFetched++;
      users.push(...page.users);
      token = page.next;
    } while (token && pagesFetched < request.maxPages);
    const nextCursor = token ? encodeCursor(userId, request.direction, token) : null;
    return { userId, direction: request.direction, users, nextCursor, pagesFetched, ...(error ? { error } : {}) };
  }
}
