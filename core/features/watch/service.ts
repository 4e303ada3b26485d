/**
 * The watch service behind /v1/watch and the dashboard: create (the watch, its place on the shared
 * schedule and its first check, in one transaction), list, detail with the snapshot timeline,
 * update (interval and `active` move the schedule too), delete (the watch, its snapshots and its
 * schedule), manual checks, and the diff between any two snapshots of a watch.
 */
import type { Logger } from 'pino';
import { TrawlError } from '../../errors.ts';
import type { DbJobQueue } from '../../jobs/queue.ts';
import type { Scheduler } from '../../jobs/scheduler.ts';
import type { ContentRunner } from '../../content-runner.ts';
import type { Comparison } from '../diff/compare.ts';
import { compareOffThread } from '../diff/task.ts';
import { CHECK_JOB } from './check.ts';
import type { WatchLimits, WatchSettings } from './config.ts';
import type { NewWatch, Snapshot, Watch, WatchListFilter, WatchPatch } from './records.ts';
import type { WatchStore } from './store.ts';
import type { Window } from '../../storage/values.ts';
import { lockUntilCommit } from '../../storage/locks.ts';

export interface WatchServiceDeps {
  store: WatchStore;
  queue: DbJobQueue;
  scheduler: Scheduler;
  settings: WatchSettings;
  logger: Logger;
  /** Snapshot diffs are compared in a content worker, with `scrape.timeoutMs` as their deadline. */
  content: ContentRunner;
  compareTimeoutMs: number;
}

export interface SnapshotDiff {
  from: Snapshot;
  to: Snapshot;
  comparison: Comparison;
}

const notFound = () => new TrawlError('not_found', 'Watch not found');

export class WatchService {
  constructor(private readonly deps: WatchServiceDeps) {}

  private get store() {
    return this.deps.store;
  }

  private checkSpec(watch: Watch) {
    return { kind: CHECK_JOB, workspace: watch.workspace, payload: { subject: watch.id }, maxAttempts: this.deps.settings.maxAttempts };
  }

  /** Creates a watch within the workspace's limits (the section's, or its plan's in cloud mode). */
  async create(workspace: string, input: NewWatch, limits: Pick<WatchLimits, 'maxPerWorkspace'>): Promise<Watch> {
    const { scheduler, queue } = this.deps;
    const watch = await this.store.db.transaction().execute(async (trx) => {
      // Simultaneous creates count one after the other, so none passes the limit.
      await lockUntilCommit(trx, `watch.create:${workspace}`);
      if ((await this.store.count(workspace, trx)) >= limits.maxPerWorkspace) {
        throw new TrawlError('conflict', `Watch limit reached: at most ${limits.maxPerWorkspace} watches per workspace`);
      }
      const created = await this.store.insert(trx, workspace, input);
      await scheduler.put(trx, { kind: CHECK_JOB, subject: created.id, workspace, intervalSeconds: created.intervalMinutes * 60 });
      // The first check runs at once: its snapshot is the `initial` one.
      await queue.insert(trx, [this.checkSpec(created)]);
      return created;
    });
    queue.poke([CHECK_JOB]);
    return watch;
  }

  list(workspace: string, query: Window, filter: WatchListFilter = {}) {
    return this.store.list(workspace, query, filter);
  }

  /** When each active watch is checked next (from the shared schedule); paused ones have none. */
  async nextChecks(watches: readonly Watch[]): Promise<Map<string, string>> {
    return this.deps.scheduler.nextDue(
      CHECK_JOB,
      watches.filter((w) => w.active).map((w) => w.id),
    );
  }

  async get(workspace: string, id: string): Promise<Watch> {
    const watch = await this.store.get(workspace, id);
    if (!watch) throw notFound();
    return watch;
  }

  /** The watch and its snapshots, newest first (all that retention keeps). */
  async detail(workspace: string, id: string): Promise<{ watch: Watch; snapshots: Snapshot[] }> {
    const watch = await this.get(workspace, id);
    return { watch, snapshots: await this.store.snapshots(id, this.deps.settings.snapshotRetention) };
  }

  async update(workspace: string, id: string, patch: WatchPatch): Promise<Watch> {
    const { scheduler } = this.deps;
    const updated = await this.store.db.transaction().execute(async (trx) => {
      const watch = await this.store.update(trx, workspace, id, patch);
      if (!watch) return null;
      if (patch.intervalMinutes !== undefined)
        await scheduler.put(trx, { kind: CHECK_JOB, subject: id, workspace, intervalSeconds: watch.intervalMinutes * 60 });
      if (patch.active !== undefined) await scheduler.setActive(trx, CHECK_JOB, id, patch.active);
      return watch;
    });
    if (!updated) throw notFound();
    return updated;
  }

  async delete(workspace: string, id: string): Promise<void> {
    const deleted = await this.store.db.transaction().execute(async (trx) => {
      if (!(await this.store.delete(trx, workspace, id))) return false;
      await this.deps.scheduler.remove(trx, CHECK_JOB, id);
      return true;
    });
    if (!deleted) throw notFound();
  }

  /** Queues a check now (also of a paused watch: the caller asked for it). */
  async check(workspace: string, id: string): Promise<void> {
    const watch = await this.get(workspace, id);
    await this.deps.queue.enqueue(this.checkSpec(watch));
  }

  /** What changed from snapshot `fromId` to `toId`, under the watch's noise rules (clocks read against each check's time). */
  async diff(workspace: string, id: string, fromId: string, toId: string): Promise<SnapshotDiff> {
    const watch = await this.get(workspace, id);
    const [from, to] = await Promise.all([this.store.snapshotWithContent(id, fromId), this.store.snapshotWithContent(id, toId)]);
    if (!from || !to) throw new TrawlError('not_found', 'Snapshot not found');
    const rules = { ignoreText: watch.ignoreText, patterns: watch.ignorePatterns };
    const version = (s: NonNullable<typeof from>) => ({
      markdown: s.markdown,
      wordCount: s.snapshot.wordCount,
      fetchedAt: Date.parse(s.snapshot.checkedAt),
    });
    const comparison = await compareOffThread(
      this.deps.content,
      { previous: version(from), current: version(to), rules, view: true },
      this.deps.compareTimeoutMs,
    );
    return { from: from.snapshot, to: to.snapshot, comparison };
  }
}
