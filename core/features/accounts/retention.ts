/**
 * The usage log's retention: rows older than `usageRetentionDays` are deleted, a bounded chunk per
 * statement so no transaction grows with the backlog, by every cloud process on a timer (deleting
 * the same old rows twice is harmless). Lease rows of processes long gone that hold nothing are
 * deleted with them; leases that still hold credits are left to be given back (leases.ts).
 */
import type { Logger } from 'pino';
import type { AccountsSettings } from './config.ts';
import { LEASE_TTL_MS } from './leases.ts';
import type { AccountsDb } from './tables.ts';

const CHUNK = 5_000;
const DAY_MS = 86_400_000;

/** Deletes what the retention allows as of `now`; the number of usage rows deleted. */
export async function pruneUsage(db: AccountsDb, retentionDays: number, now = Date.now()): Promise<number> {
  await db
    .deleteFrom('credit_leases')
    .where('held', '=', 0)
    .where('expires_at', '<', now - LEASE_TTL_MS)
    .execute();
  if (retentionDays === 0) return 0;
  const cutoff = new Date(now - retentionDays * DAY_MS).toISOString();
  let deleted = 0;
  for (;;) {
    const chunk = db.selectFrom('usage_log').select('id').where('created_at', '<', cutoff).limit(CHUNK);
    const result = await db.deleteFrom('usage_log').where('id', 'in', chunk).executeTakeFirst();
    const n = Number(result.numDeletedRows);
    deleted += n;
    if (n < CHUNK) return deleted;
  }
}

/** Prunes every `pruneIntervalMinutes`, the first time a minute after start; returns the stop function. */
export function startPruning(db: AccountsDb, settings: AccountsSettings, logger: Logger): () => void {
  const run = () => {
    pruneUsage(db, settings.usageRetentionDays)
      .then((deleted) => {
        if (deleted > 0) logger.info({ deleted, retentionDays: settings.usageRetentionDays }, 'usage log pruned');
      })
      .catch((err) => logger.warn({ err }, 'could not prune the usage log'));
  };
  const first = setTimeout(run, 60_000);
  const every = setInterval(run, settings.pruneIntervalMinutes * 60_000);
  first.unref?.();
  every.unref?.();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}
