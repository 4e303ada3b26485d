/**
 * The SQL of social monitors. Rows are read through values.ts (booleans and integers differ between
 * drivers). Workspace-facing reads take the workspace, so another workspace's id reads as unknown;
 * the check worker reads by id alone.
 */
import type { Selectable } from 'kysely';
import type { SocialFilters, SocialTargetKind } from '../../plugin.ts';
import { nowIso, readBool, readInt, writeBool, type Window } from '../../storage/values.ts';
import type { SocialDb, SocialExecutor, SocialMonitorsTable } from './tables.ts';

export interface Monitor extends SocialFilters {
  id: string;
  workspace: string;
  kind: SocialTargetKind;
  target: string;
  name: string;
  intervalMinutes: number;
  webhookUrl: string | null;
  active: boolean;
  sourceId: string | null;
  cursor: string | null;
  lastCheckedAt: string | null;
  lastMatchedAt: string | null;
  lastError: string | null;
  createdAt: string;
}

export type NewMonitor = Pick<Monitor, 'kind' | 'target' | 'name' | 'intervalMinutes' | 'webhookUrl' | keyof SocialFilters>;
export type MonitorPatch = Partial<Pick<Monitor, 'name' | 'intervalMinutes' | 'webhookUrl' | 'active'>>;

const toMonitor = (row: Selectable<SocialMonitorsTable>): Monitor => ({
  id: row.id,
  workspace: row.workspace_id,
  kind: row.kind as SocialTargetKind,
  target: row.target,
  name: row.name,
  intervalMinutes: readInt(row.interval_minutes),
  webhookUrl: row.webhook_url,
  active: readBool(row.active),
  includeRetweets: readBool(row.include_retweets),
  includeReplies: readBool(row.include_replies),
  includeQuotes: readBool(row.include_quotes),
  minFaves: readInt(row.min_faves),
  keyword: row.keyword,
  lang: row.lang,
  sourceId: row.source_id,
  cursor: row.cursor,
  lastCheckedAt: row.last_checked_at,
  lastMatchedAt: row.last_matched_at,
  lastError: row.last_error,
  createdAt: row.created_at,
});

export function createMonitorStore(db: SocialDb) {
  const scoped = (workspace: string, id: string) =>
    db.selectFrom('social_monitors').where('workspace_id', '=', workspace).where('id', '=', id);

  return {
    db,

    async count(workspace: string, executor: SocialExecutor = db): Promise<number> {
      const row = await executor
        .selectFrom('social_monitors')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('workspace_id', '=', workspace)
        .executeTakeFirstOrThrow();
      return readInt(row.n);
    },

    async insert(executor: SocialExecutor, workspace: string, m: NewMonitor): Promise<Monitor> {
      const now = nowIso();
      const row: Selectable<SocialMonitorsTable> = {
        id: crypto.randomUUID(),
        workspace_id: workspace,
        kind: m.kind,
        target: m.target,
        name: m.name,
        interval_minutes: m.intervalMinutes,
        webhook_url: m.webhookUrl,
        active: 1,
        include_retweets: writeBool(m.includeRetweets),
        include_replies: writeBool(m.includeReplies),
        include_quotes: writeBool(m.includeQuotes),
        min_faves: m.minFaves,
        keyword: m.keyword,
        lang: m.lang,
        source_id: null,
        cursor: null,
        last_checked_at: null,
        last_matched_at: null,
        last_error: null,
        created_at: now,
        updated_at: now,
      };
      await executor.insertInto('social_monitors').values(row).execute();
      return toMonitor(row);
    },

    async get(workspace: string, id: string): Promise<Monitor | null> {
      const row = await scoped(workspace, id).selectAll().executeTakeFirst();
      return row ? toMonitor(row) : null;
    },

    /** For the check worker: any workspace. */
    async byId(id: string): Promise<Monitor | null> {
      const row = await db.selectFrom('social_monitors').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toMonitor(row) : null;
    },

    async list(workspace: string, query: Window): Promise<{ items: Monitor[]; total: number }> {
      const [total, rows] = await Promise.all([
        this.count(workspace),
        db
          .selectFrom('social_monitors')
          .selectAll()
          .where('workspace_id', '=', workspace)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(query.limit)
          .offset(query.offset)
          .execute(),
      ]);
      return { items: rows.map(toMonitor), total };
    },

    async update(executor: SocialExecutor, workspace: string, id: string, patch: MonitorPatch): Promise<Monitor | null> {
      const set: Partial<SocialMonitorsTable> = { updated_at: nowIso() };
      if (patch.name !== undefined) set.name = patch.name;
      if (patch.intervalMinutes !== undefined) set.interval_minutes = patch.intervalMinutes;
      if (patch.webhookUrl !== undefined) set.webhook_url = patch.webhookUrl;
      if (patch.active !== undefined) set.active = writeBool(patch.active);
      const result = await executor
        .updateTable('social_monitors')
        .set(set)
        .where('workspace_id', '=', workspace)
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return null;
      return toMonitor(await executor.selectFrom('social_monitors').selectAll().where('id', '=', id).executeTakeFirstOrThrow());
    },

    async delete(executor: SocialExecutor, workspace: string, id: string): Promise<boolean> {
      const result = await executor
        .deleteFrom('social_monitors')
        .where('workspace_id', '=', workspace)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** A finished check: where the next one starts, and when it matched. */
    async recordCheck(
      id: string,
      check: { cursor: string | null; sourceId: string | null; checkedAt: string; matched: boolean },
    ): Promise<void> {
      const set: Partial<SocialMonitorsTable> = {
        cursor: check.cursor,
        source_id: check.sourceId,
        last_checked_at: check.checkedAt,
        last_error: null,
      };
      if (check.matched) set.last_matched_at = check.checkedAt;
      await db.updateTable('social_monitors').set(set).where('id', '=', id).execute();
    },

    async recordError(id: string, error: string): Promise<void> {
      await db
        .updateTable('social_monitors')
        .set({ last_error: error.slice(0, 2000) })
        .where('id', '=', id)
        .execute();
    },
  };
}

export type MonitorStore = ReturnType<typeof createMonitorStore>;
