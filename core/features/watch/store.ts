/**
 * The SQL of watches and their snapshots; the records and their row mapping are in records.ts.
 * Workspace-facing reads take the workspace, so another workspace's id reads as unknown; the check
 * worker reads by id alone.
 */
import { sql, type Selectable } from 'kysely';
import { nowIso, readInt, readJson, writeBool, type Window } from '../../storage/values.ts';
import {
  filterColumns,
  packContent,
  SNAPSHOT_COLUMNS,
  toSnapshot,
  toWatch,
  unpackContent,
  type NewWatch,
  type Snapshot,
  type Watch,
  type WatchListFilter,
  type WatchPatch,
} from './records.ts';
import type { WatchDb, WatchesTable, WatchExecutor, WatchSnapshotsTable } from './tables.ts';

/** `%`, `_` and the escape itself taken literally in a LIKE pattern (escape character `\`). */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The unique slot index refused a second snapshot for the same slot. */
const isDuplicate = (err: unknown) => /unique|duplicate key/i.test(err instanceof Error ? err.message : String(err));

export function createWatchStore(db: WatchDb) {
  const scoped = (workspace: string, id: string) => db.selectFrom('watches').where('workspace_id', '=', workspace).where('id', '=', id);

  return {
    db,

    async count(workspace: string, executor: WatchExecutor = db): Promise<number> {
      const row = await executor
        .selectFrom('watches')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('workspace_id', '=', workspace)
        .executeTakeFirstOrThrow();
      return readInt(row.n);
    },

    async insert(executor: WatchExecutor, workspace: string, watch: NewWatch): Promise<Watch> {
      const now = nowIso();
      const row = {
        id: crypto.randomUUID(),
        workspace_id: workspace,
        url: watch.url,
        name: watch.name,
        interval_minutes: watch.intervalMinutes,
        webhook_url: watch.webhookUrl,
        active: 1,
        notify: '[]',
        ...filterColumns(watch),
        seen_lines: '[]',
        last_state: 'new',
        last_checked_at: null,
        last_changed_at: null,
        last_error: null,
        created_at: now,
        updated_at: now,
      } as Selectable<WatchesTable>;
      await executor.insertInto('watches').values(row).execute();
      return toWatch(row);
    },

    async get(workspace: string, id: string): Promise<Watch | null> {
      const row = await scoped(workspace, id).selectAll().executeTakeFirst();
      return row ? toWatch(row) : null;
    },

    /** For the check worker: any workspace. */
    async byId(id: string): Promise<Watch | null> {
      const row = await db.selectFrom('watches').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toWatch(row) : null;
    },

    async list(workspace: string, query: Window, filter: WatchListFilter = {}): Promise<{ items: Watch[]; total: number }> {
      let selected = db.selectFrom('watches').where('workspace_id', '=', workspace);
      // Tags are a JSON array of strings: the tag's JSON form, quotes included, matches one element exactly.
      if (filter.tag) selected = selected.where(sql<boolean>`tags like ${`%${likeLiteral(JSON.stringify(filter.tag))}%`} escape '\\'`);
      if (filter.search) {
        const pattern = `%${likeLiteral(filter.search.toLowerCase())}%`;
        selected = selected.where(sql<boolean>`(lower(name) like ${pattern} escape '\\' or lower(url) like ${pattern} escape '\\')`);
      }
      const [total, rows] = await Promise.all([
        selected
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
          .then((r) => readInt(r.n)),
        selected.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit).offset(query.offset).execute(),
      ]);
      return { items: rows.map(toWatch), total };
    },

    async update(executor: WatchExecutor, workspace: string, id: string, patch: WatchPatch): Promise<Watch | null> {
      const set: Partial<WatchesTable> = { updated_at: nowIso(), ...filterColumns(patch) };
      if (patch.name !== undefined) set.name = patch.name;
      if (patch.intervalMinutes !== undefined) set.interval_minutes = patch.intervalMinutes;
      if (patch.webhookUrl !== undefined) set.webhook_url = patch.webhookUrl;
      if (patch.active !== undefined) set.active = writeBool(patch.active);
      const result = await executor
        .updateTable('watches')
        .set(set)
        .where('workspace_id', '=', workspace)
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return null;
      const row = await executor.selectFrom('watches').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return toWatch(row);
    },

    /** The watch and all its snapshots; false when unknown in the workspace. */
    async delete(executor: WatchExecutor, workspace: string, id: string): Promise<boolean> {
      const result = await executor.deleteFrom('watches').where('workspace_id', '=', workspace).where('id', '=', id).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      await executor.deleteFrom('watch_snapshots').where('watch_id', '=', id).execute();
      await executor.deleteFrom('watch_notify_status').where('watch_id', '=', id).execute();
      return true;
    },

    /** Newest first, without content. */
    async snapshots(watchId: string, limit: number): Promise<Snapshot[]> {
      const rows = await db
        .selectFrom('watch_snapshots')
        .select(SNAPSHOT_COLUMNS)
        .where('watch_id', '=', watchId)
        .orderBy('checked_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(toSnapshot);
    },

    /** A snapshot with its markdown, or null. */
    async snapshotWithContent(watchId: string, snapshotId: string): Promise<{ snapshot: Snapshot; markdown: string } | null> {
      const row = await db
        .selectFrom('watch_snapshots')
        .select([...SNAPSHOT_COLUMNS, 'content'])
        .where('watch_id', '=', watchId)
        .where('id', '=', snapshotId)
        .executeTakeFirst();
      return row ? { snapshot: toSnapshot(row), markdown: unpackContent(row.content) } : null;
    },

    async latestWithContent(watchId: string): Promise<{ snapshot: Snapshot; markdown: string } | null> {
      const row = await db
        .selectFrom('watch_snapshots')
        .select([...SNAPSHOT_COLUMNS, 'content'])
        .where('watch_id', '=', watchId)
        .orderBy('checked_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? { snapshot: toSnapshot(row), markdown: unpackContent(row.content) } : null;
    },

    /** Hashes of the lines the watch has seen (only_new_lines), oldest first. */
    async seenLines(watchId: string): Promise<string[]> {
      const row = await db.selectFrom('watches').select(['seen_lines']).where('id', '=', watchId).executeTakeFirst();
      return row ? readJson<string[]>(row.seen_lines) : [];
    },

    /**
     * Appends a snapshot and updates the watch's check times (and, given, its seen lines) in one
     * transaction; false (nothing written) when the slot already has its snapshot or the watch was
     * deleted meanwhile.
     */
    async appendSnapshot(
      workspace: string,
      snapshot: Omit<Snapshot, 'id'>,
      markdown: string,
      seenLines?: readonly string[],
    ): Promise<Snapshot | null> {
      const row: Selectable<WatchSnapshotsTable> = {
        id: crypto.randomUUID(),
        watch_id: snapshot.watchId,
        workspace_id: workspace,
        content_hash: snapshot.contentHash,
        word_count: snapshot.wordCount,
        status: snapshot.status,
        title: snapshot.title,
        diff_summary: snapshot.diffSummary,
        word_count_delta: snapshot.wordCountDelta,
        links_added: snapshot.linksAdded,
        links_removed: snapshot.linksRemoved,
        notified: writeBool(snapshot.notified),
        reason: snapshot.reason,
        excerpt: snapshot.excerpt,
        observed: snapshot.observed ? JSON.stringify(snapshot.observed) : null,
        content: packContent(markdown),
        due_at: snapshot.dueAt,
        checked_at: snapshot.checkedAt,
      };
      try {
        return await db.transaction().execute(async (trx) => {
          const state = snapshot.status === 'initial' ? 'new' : snapshot.notified ? 'changed' : 'unchanged';
          const set: Partial<WatchesTable> = { last_checked_at: snapshot.checkedAt, last_error: null, last_state: state };
          if (seenLines) set.seen_lines = JSON.stringify(seenLines);
          if (snapshot.status === 'changed') set.last_changed_at = snapshot.checkedAt;
          const updated = await trx.updateTable('watches').set(set).where('id', '=', snapshot.watchId).executeTakeFirst();
          if (Number(updated.numUpdatedRows) === 0) return null;
          await trx.insertInto('watch_snapshots').values(row).execute();
          return toSnapshot(row);
        });
      } catch (err) {
        if (isDuplicate(err)) return null;
        throw err;
      }
    },

    /** `checkedAt` null: the check never ran (no credits), so the watch was not checked and keeps its last check time. */
    async recordFailure(watchId: string, error: string, checkedAt: string | null): Promise<void> {
      await db
        .updateTable('watches')
        .set({ last_error: error.slice(0, 2000), ...(checkedAt ? { last_checked_at: checkedAt } : {}) })
        .where('id', '=', watchId)
        .execute();
    },

    /** Keeps the newest `keep` snapshots of a watch. */
    async prune(watchId: string, keep: number): Promise<number> {
      const cutoff = await db
        .selectFrom('watch_snapshots')
        .select(['checked_at'])
        .where('watch_id', '=', watchId)
        .orderBy('checked_at', 'desc')
        .orderBy('id', 'desc')
        .offset(keep)
        .limit(1)
        .executeTakeFirst();
      if (!cutoff) return 0;
      const result = await db
        .deleteFrom('watch_snapshots')
        .where('watch_id', '=', watchId)
        .where('checked_at', '<=', cutoff.checked_at)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type WatchStore = ReturnType<typeof createWatchStore>;
