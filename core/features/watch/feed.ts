/**
 * The workspace's change feed: one revocable feed token per workspace (only its sha256 is kept, so a
 * leaked database does not open feeds) and the notified changes the Atom feed lists, newest first.
 * The token is the feed's only credential because feed readers cannot send headers; revoking or
 * rotating it closes the old URL at once.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Database } from '../../storage/schema.ts';
import { nowIso, sha256Hex } from '../../storage/values.ts';
import type { WatchTables } from './tables.ts';

export interface WatchFeedTokensTable {
  /** sha256 (hex) of the token; the token itself is shown once, when created. */
  token_hash: string;
  /** One token per workspace: creating another replaces it. */
  workspace_id: string;
  created_at: string;
}

export type FeedTables = WatchTables & { watch_feed_tokens: WatchFeedTokensTable };

/** Migration `watch.0004_feeds`: the feed tokens. */
export const feedTokensMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('watch_feed_tokens')
      .ifNotExists()
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    // The feed reads a workspace's changes newest first.
    await db.schema
      .createIndex('watch_snapshots_workspace')
      .ifNotExists()
      .on('watch_snapshots')
      .columns(['workspace_id', 'checked_at'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('watch_snapshots_workspace').ifExists().execute();
    await db.schema.dropTable('watch_feed_tokens').ifExists().execute();
  },
};

/** One change as the feed shows it. */
export interface FeedEntry {
  snapshotId: string;
  watchId: string;
  watchName: string;
  url: string;
  title: string;
  summary: string | null;
  /** Why the change notified (the condition that held), when the check recorded one. */
  reason: string | null;
  /** A short word diff of the change, when the check recorded one. */
  excerpt: string | null;
  checkedAt: string;
}

const TOKEN_PREFIX = 'trawl_feed_';

export function createFeedStore(db: Kysely<Database & FeedTables>) {
  return {
    /** A new token for the workspace (the previous one stops working); the plain token is returned once. */
    async create(workspace: string): Promise<{ token: string; createdAt: string }> {
      const token = TOKEN_PREFIX + randomBytes(24).toString('base64url');
      const createdAt = nowIso();
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('watch_feed_tokens').where('workspace_id', '=', workspace).execute();
        await trx
          .insertInto('watch_feed_tokens')
          .values({ token_hash: sha256Hex(token), workspace_id: workspace, created_at: createdAt })
          .execute();
      });
      return { token, createdAt };
    },

    /** Whether the workspace has a token, and since when. */
    async status(workspace: string): Promise<{ createdAt: string } | null> {
      const row = await db.selectFrom('watch_feed_tokens').select('created_at').where('workspace_id', '=', workspace).executeTakeFirst();
      return row ? { createdAt: row.created_at } : null;
    },

    /** false when the workspace had none. */
    async revoke(workspace: string): Promise<boolean> {
      const result = await db.deleteFrom('watch_feed_tokens').where('workspace_id', '=', workspace).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** The workspace a token opens, or null (unknown, revoked or malformed). */
    async workspaceOf(token: string): Promise<string | null> {
      if (!token.startsWith(TOKEN_PREFIX) || token.length > 100) return null;
      const row = await db
        .selectFrom('watch_feed_tokens')
        .select('workspace_id')
        .where('token_hash', '=', sha256Hex(token))
        .executeTakeFirst();
      return row?.workspace_id ?? null;
    },

    /** The workspace's notified changes, newest first. */
    async entries(workspace: string, limit: number): Promise<FeedEntry[]> {
      const rows = await db
        .selectFrom('watch_snapshots as s')
        .innerJoin('watches as w', 'w.id', 's.watch_id')
        .select(['s.id', 's.watch_id', 'w.name', 'w.url', 's.title', 's.diff_summary', 's.reason', 's.excerpt', 's.checked_at'])
        .where('s.workspace_id', '=', workspace)
        .where('s.notified', '=', 1)
        .orderBy('s.checked_at', 'desc')
        .orderBy('s.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        snapshotId: r.id,
        watchId: r.watch_id,
        watchName: r.name,
        url: r.url,
        title: r.title,
        summary: r.diff_summary,
        reason: r.reason,
        excerpt: r.excerpt,
        checkedAt: r.checked_at,
      }));
    },
  };
}

export type FeedStore = ReturnType<typeof createFeedStore>;
