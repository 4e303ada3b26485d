/**
 * The shared schedule: recurring work (watch checks, social monitor polls) as rows of `schedules`
 * keyed by the job kind each due slot runs as. A feature puts, pauses and removes its subjects'
 * rows (inside its own transactions) and declares the job kind with `schedule: true`; every
 * process that runs workers ticks (croner) and claims due rows of the kinds it handles. A claim
 * advances `next_due_at` and enqueues the slot's job in one transaction, locking the rows with
 * `FOR UPDATE SKIP LOCKED` on Postgres, so any number of processes share the schedule and a slot is
 * enqueued once. The due-time rules live here and nowhere else:
 * - each subject gets a fixed offset (a hash of its id, up to `scheduleJitterSeconds` and a tenth
 *   of its interval), so thousands of subjects with one interval do not fire in one burst;
 * - after a claim the next slot is one interval later; when that is already past (the service was
 *   down), the missed slots are not replayed: the overdue check runs once and the schedule restarts
 *   from now.
 */
import { Cron } from 'croner';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { TrawlConfig } from '../config-schema.ts';
import type { JobSpec } from '../services.ts';
import type { Database } from '../storage/schema.ts';
import { readInt } from '../storage/values.ts';
import type { Executor } from './store.ts';

export type ScheduleConfig = Pick<TrawlConfig['jobs'], 'scheduleTickSeconds' | 'scheduleJitterSeconds' | 'scheduleBatch'>;

/** What a scheduled job's payload carries: the subject and the slot. */
export interface SlotPayload {
  subject: string;
  /** The slot this run is for (ISO); the handler can record it so a slot is never done twice. */
  due: string;
}

/** How the jobs of a kind's slots are enqueued. */
export interface SlotOptions {
  /** Attempts per slot's job; default `jobs.maxAttempts`. */
  maxAttempts?: number;
}

export interface ScheduleEntry {
  kind: string;
  subject: string;
  workspace: string;
  intervalSeconds: number;
}

/** Where the claimed slots go: the job queue's insert inside the claim's transaction. */
export interface SlotSink {
  insert(db: Executor, specs: readonly JobSpec[]): Promise<string[]>;
  poke(kinds?: readonly string[]): void;
}

/** A stable offset in [0, limit) ms for a subject: FNV-1a of its id. */
export function jitterMs(subject: string, intervalMs: number, maxJitterSeconds: number): number {
  const limit = Math.floor(Math.min(maxJitterSeconds * 1000, intervalMs / 10));
  if (limit <= 0) return 0;
  let hash = 0x811c9dc5;
  for (let i = 0; i < subject.length; i++) hash = Math.imul(hash ^ subject.charCodeAt(i), 0x01000193) >>> 0;
  return hash % limit;
}

/** The slot after `due`: one interval on, or (when that is past already) one interval from now plus the subject's offset. */
export function nextSlot(due: number, intervalMs: number, now: number, offsetMs: number): number {
  const next = due + intervalMs;
  return next > now ? next : now + intervalMs + offsetMs;
}

export class Scheduler {
  /** The kinds this process claims, with what their slot jobs are enqueued with. */
  private readonly kinds = new Map<string, SlotOptions>();
  private cron: Cron | null = null;
  private ticking: Promise<number> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: 'sqlite' | 'postgres',
    private readonly sink: SlotSink,
    private readonly config: ScheduleConfig,
    private readonly logger: Logger,
    /** The clock; tests hand in a fake one and call tick() themselves. */
    private readonly now: () => number = Date.now,
  ) {}

  /** This process claims due slots of the kind (its job handler is registered here too). */
  register(kind: string, options: SlotOptions = {}): void {
    this.kinds.set(kind, options);
  }

  private offset(entry: Pick<ScheduleEntry, 'subject' | 'intervalSeconds'>): number {
    return jitterMs(entry.subject, entry.intervalSeconds * 1000, this.config.scheduleJitterSeconds);
  }

  /**
   * Adds a subject whose first slot is one interval (plus its offset) from now — the caller runs
   * the first check itself — or changes an existing subject's interval, keeping its phase: the
   * next slot moves to the last slot plus the new interval, never into the past.
   */
  async put(db: Executor, entry: ScheduleEntry): Promise<void> {
    const now = this.now();
    const intervalMs = entry.intervalSeconds * 1000;
    const existing = await db
      .selectFrom('schedules')
      .select(['interval_seconds', 'next_due_at'])
      .where('kind', '=', entry.kind)
      .where('subject_id', '=', entry.subject)
      .executeTakeFirst();
    if (existing) {
      const last = Date.parse(existing.next_due_at) - readInt(existing.interval_seconds) * 1000;
      const next = new Date(Math.max(now, last + intervalMs)).toISOString();
      await db
        .updateTable('schedules')
        .set({ interval_seconds: entry.intervalSeconds, next_due_at: next })
        .where('kind', '=', entry.kind)
        .where('subject_id', '=', entry.subject)
        .execute();
      return;
    }
    await db
      .insertInto('schedules')
      .values({
        kind: entry.kind,
        subject_id: entry.subject,
        workspace_id: entry.workspace,
        interval_seconds: entry.intervalSeconds,
        next_due_at: new Date(now + intervalMs + this.offset(entry)).toISOString(),
        active: 1,
        last_enqueued_at: null,
        created_at: new Date(now).toISOString(),
      })
      .execute();
  }

  /** Paused subjects are not claimed; resuming one whose slot passed meanwhile runs it once at the next tick. */
  async setActive(db: Executor, kind: string, subject: string, active: boolean): Promise<void> {
    await db
      .updateTable('schedules')
      .set({ active: active ? 1 : 0 })
      .where('kind', '=', kind)
      .where('subject_id', '=', subject)
      .execute();
  }

  async remove(db: Executor, kind: string, subject: string): Promise<void> {
    await db.deleteFrom('schedules').where('kind', '=', kind).where('subject_id', '=', subject).execute();
  }

  /** The next slot of each given subject of the kind (paused ones too: they resume there). */
  async nextDue(kind: string, subjects: readonly string[]): Promise<Map<string, string>> {
    if (subjects.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('schedules')
      .select(['subject_id', 'next_due_at'])
      .where('kind', '=', kind)
      .where('subject_id', 'in', [...subjects])
      .execute();
    return new Map(rows.map((r) => [r.subject_id, r.next_due_at]));
  }

  /** Ticks every `scheduleTickSeconds`, and once at once (catch-up after a restart). */
  start(): void {
    if (this.cron || this.kinds.size === 0) return;
    this.cron = new Cron('* * * * * *', { interval: this.config.scheduleTickSeconds, protect: true }, () => this.tickSafely());
    void this.tickSafely();
  }

  async stop(): Promise<void> {
    this.cron?.stop();
    this.cron = null;
    await this.ticking?.catch(() => 0);
  }

  private async tickSafely(): Promise<void> {
    try {
      await this.tick();
    } catch (err) {
      this.logger.error({ err }, 'claiming due schedules failed');
    }
  }

  /** Claims every due slot of the registered kinds (batch by batch) and enqueues them; how many. Overlapping calls share one run. */
  tick(): Promise<number> {
    this.ticking ??= this.claimAll().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  private async claimAll(): Promise<number> {
    let total = 0;
    for (const kind of this.kinds.keys()) {
      let claimed: number;
      do {
        claimed = await this.claimBatch(kind);
        total += claimed;
      } while (claimed === this.config.scheduleBatch);
    }
    if (total > 0) {
      this.sink.poke([...this.kinds.keys()]);
      this.logger.debug({ enqueued: total }, 'scheduled checks enqueued');
    }
    return total;
  }

  private async claimBatch(kind: string): Promise<number> {
    const now = this.now();
    const nowIso = new Date(now).toISOString();
    return this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('schedules')
        .select(['subject_id', 'workspace_id', 'interval_seconds', 'next_due_at'])
        .where('kind', '=', kind)
        .where('active', '=', 1)
        .where('next_due_at', '<=', nowIso)
        .orderBy('next_due_at')
        .limit(this.config.scheduleBatch)
        .$if(this.dialect === 'postgres', (q) => q.forUpdate().skipLocked())
        .execute();
      if (rows.length === 0) return 0;
      const next = rows.map((row) => {
        const intervalSeconds = readInt(row.interval_seconds);
        const slot = nextSlot(
          Date.parse(row.next_due_at),
          intervalSeconds * 1000,
          now,
          this.offset({ subject: row.subject_id, intervalSeconds }),
        );
        return new Date(slot).toISOString();
      });
      // One statement for the batch; the rows are ours (locked on Postgres, one writer on SQLite).
      const cases = sql.join(
        rows.map((row, i) => sql`when ${row.subject_id} then ${next[i]}`),
        sql` `,
      );
      await trx
        .updateTable('schedules')
        .set({ next_due_at: sql<string>`case subject_id ${cases} end`, last_enqueued_at: nowIso })
        .where('kind', '=', kind)
        .where(
          'subject_id',
          'in',
          rows.map((r) => r.subject_id),
        )
        .execute();
      const { maxAttempts } = this.kinds.get(kind) ?? {};
      await this.sink.insert(
        trx,
        rows.map((row) => ({
          kind,
          workspace: row.workspace_id,
          payload: { subject: row.subject_id, due: row.next_due_at },
          ...(maxAttempts ? { maxAttempts } : {}),
        })),
      );
      return rows.length;
    });
  }
}
