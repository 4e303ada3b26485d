/**
 * A worker thread that checkpoints a SQLite database's write-ahead log (bun-sqlite.ts starts it).
 * bun:sqlite is synchronous, so a checkpoint run by the server's own connection — SQLite runs one
 * inside a commit every thousand pages — stops the whole event loop while it copies pages and
 * syncs the file: tens of milliseconds on a busy disk, for every request in flight. Here the
 * copying happens on a connection of its own, on another thread, and never blocks a writer
 * (PASSIVE), so the server's commits only append to the log.
 */
import { Database } from 'bun:sqlite';

declare const self: Worker;

self.onmessage = (event: MessageEvent<{ file: string; intervalMs: number }>) => {
  const { file, intervalMs } = event.data;
  const db = new Database(file);
  db.run('PRAGMA busy_timeout = 5000');
  setInterval(() => {
    try {
      db.run('PRAGMA wal_checkpoint(PASSIVE)');
    } catch {
      // Busy or closing: the next round tries again.
    }
  }, intervalMs);
};
