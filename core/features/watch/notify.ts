/**
 * Telling a watch's targets that a check notified: the signed `watch.changed` payload to its
 * `webhook_url` (as the spec has it), and to each `notify` target the page title, the word diff
 * excerpt, the reason and a link to the dashboard's diff of that snapshot — in a chat platform's
 * message, an e-mail or the signed payload (the notify feature picks per target). Every delivery
 * reports each attempt back, and the last outcome per target is what the watch's `notify_status`
 * shows.
 */
import type { Logger } from 'pino';
import type { TrawlConfig } from '../../config-schema.ts';
import type { DeliveryReport, EventBus } from '../../services.ts';
import type { Notification } from '../notify/notification.ts';
import type { Notifier } from '../notify/send.ts';
import { readInt } from '../../storage/values.ts';
import type { Snapshot, Watch } from './records.ts';
import type { WatchDb } from './tables.ts';

/** The origin kind of a watch's deliveries. */
export const ORIGIN = 'watch';

/** The event a notifying check announces. */
export const CHANGED_EVENT = 'watch.changed';

/** The last delivery attempt to one target. */
export interface NotifyStatus {
  target: string;
  outcome: 'delivered' | 'retrying' | 'failed';
  error: string | null;
  attempt: number;
  at: string;
}

/**
 * Where people open Trawl: `server.publicUrl`, else this server's own address (`localhost` when it
 * listens on every interface), which only works on this machine or network.
 */
export function publicBase(server: Readonly<TrawlConfig['server']>): string {
  if (server.publicUrl) return server.publicUrl.replace(/\/+$/, '');
  const host = ['0.0.0.0', '::', ''].includes(server.host) ? 'localhost' : server.host.includes(':') ? `[${server.host}]` : server.host;
  return `http://${host}:${server.port}`;
}

/** The dashboard showing this snapshot's diff against the one before it. */
export const diffLink = (base: string, watch: Watch, snapshot: Snapshot) =>
  `${base}/dashboard?watch=${encodeURIComponent(watch.id)}&to=${encodeURIComponent(snapshot.id)}`;

export function changeNotification(watch: Watch, snapshot: Snapshot, link: string): Notification {
  return {
    source: watch.name,
    headline: () => 'Page changed',
    items: [
      {
        heading: snapshot.title || watch.url,
        headingUrl: watch.url,
        title: 'See what changed',
        text: snapshot.excerpt || snapshot.diffSummary || 'The text did not change (see the reason).',
        facts: [{ name: 'Reason', value: snapshot.reason ?? 'changed' }],
        link: { url: link, label: 'See what changed' },
        time: snapshot.checkedAt,
      },
    ],
  };
}

/** The spec's `watch.changed` payload, with why the check notified and a short word diff. */
export function changedPayload(watch: Watch, snapshot: Snapshot) {
  return {
    event: CHANGED_EVENT,
    watch_id: watch.id,
    url: watch.url,
    summary: snapshot.diffSummary ?? '',
    word_count_delta: snapshot.wordCountDelta,
    checked_at: snapshot.checkedAt,
    reason: snapshot.reason,
    excerpt: snapshot.excerpt,
  };
}

export interface AnnounceDeps {
  db: WatchDb;
  events: () => EventBus | null;
  notifier: () => Notifier | null;
  server: Readonly<TrawlConfig['server']>;
  logger: Logger;
}

export function createAnnouncer(deps: AnnounceDeps) {
  const { db } = deps;
  const origin = (watch: Watch) => ({ kind: ORIGIN, subject: watch.id });

  return {
    /** Sends a notifying snapshot to the watch's `webhook_url` and `notify` targets. */
    async announce(watch: Watch, snapshot: Snapshot): Promise<void> {
      const bus = deps.events();
      if (!bus) return deps.logger.debug({ watch: watch.id }, 'no event bus registered; watch.changed not sent');
      const payload = changedPayload(watch, snapshot);
      if (watch.webhookUrl)
        await bus.emit({
          type: CHANGED_EVENT,
          workspace: watch.workspace,
          url: watch.webhookUrl,
          data: payload,
          bare: true,
          origin: origin(watch),
        });
      const notifier = deps.notifier();
      if (!watch.notify.length || !notifier) return;
      const link = diffLink(publicBase(deps.server), watch, snapshot);
      await notifier.send({
        workspace: watch.workspace,
        event: CHANGED_EVENT,
        targets: watch.notify,
        origin: origin(watch),
        notification: changeNotification(watch, snapshot, link),
        payload: { ...payload, title: snapshot.title, diff_url: link },
      });
    },

    /** Keeps an attempt's outcome as its target's status, if the target is still the watch's. */
    async record(report: DeliveryReport): Promise<void> {
      if (report.outcome === 'disabled') return;
      const row = await db
        .selectFrom('watches')
        .select(['notify', 'webhook_url'])
        .where('id', '=', report.origin.subject)
        .executeTakeFirst();
      if (!row || (row.webhook_url !== report.url && !(JSON.parse(row.notify) as string[]).includes(report.url))) return;
      const status = { outcome: report.outcome, error: report.error?.slice(0, 1000) ?? null, attempt: report.attempt, at: report.at };
      await db
        .insertInto('watch_notify_status')
        .values({ watch_id: report.origin.subject, target: report.url, ...status })
        // An older message's late attempt does not hide a newer one's outcome.
        .onConflict((oc) => oc.columns(['watch_id', 'target']).doUpdateSet(status).where('watch_notify_status.at', '<=', report.at))
        .execute();
    },

    /** Drops the outcomes of targets the watch no longer has (after a PATCH of its targets). */
    async prune(watch: Watch): Promise<void> {
      const keep = [...watch.notify, ...(watch.webhookUrl ? [watch.webhookUrl] : [])];
      let stale = db.deleteFrom('watch_notify_status').where('watch_id', '=', watch.id);
      if (keep.length) stale = stale.where('target', 'not in', keep);
      await stale.execute();
    },

    /** The targets' last outcomes per watch, for the watches' current targets only. */
    async statuses(watches: readonly Watch[]): Promise<Map<string, NotifyStatus[]>> {
      const out = new Map<string, NotifyStatus[]>(watches.map((w) => [w.id, []]));
      if (!watches.length) return out;
      const rows = await db
        .selectFrom('watch_notify_status')
        .selectAll()
        .where(
          'watch_id',
          'in',
          watches.map((w) => w.id),
        )
        .orderBy('target')
        .execute();
      const current = new Map(watches.map((w) => [w.id, new Set([...w.notify, ...(w.webhookUrl ? [w.webhookUrl] : [])])]));
      for (const row of rows) {
        if (!current.get(row.watch_id)?.has(row.target)) continue;
        out.get(row.watch_id)!.push({
          target: row.target,
          outcome: row.outcome as NotifyStatus['outcome'],
          error: row.error,
          attempt: readInt(row.attempt),
          at: row.at,
        });
      }
      return out;
    },
  };
}

export type Announcer = ReturnType<typeof createAnnouncer>;
