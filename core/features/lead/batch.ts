/**
 * Lead batches: POST /v1/lead/batch starts one (its URLs and their `lead.item` jobs in one
 * transaction), GET /v1/lead/batch/{id} reads it, scoped to the caller's workspace. A `lead.item`
 * job makes one URL's lead through the LeadService and records it; a URL that cannot be read is
 * recorded with its error (and, in cloud mode, not charged). The last recorded URL queues
 * `lead.notify`, which announces `lead.batch.completed` through the event bus.
 */
import type { Logger } from 'pino';
import { badRequest, TrawlError, type ErrorCode } from '../../errors.ts';
import { RUN_REFUSALS, SKIPPED, type JobMeter } from '../../metering.ts';
import { receiverRefusal } from '../../net/receiver.ts';
import type { TrawlConfig } from '../../config-schema.ts';
import type { FieldNamer } from '../../plugin.ts';
import { internalNames } from '../../scrape.ts';
import type { ClaimedJob, EventBus } from '../../services.ts';
import type { DbJobQueue } from '../../jobs/queue.ts';
import type { LeadSettings } from './config.ts';
import type { LeadBatchRequest } from './request.ts';
import type { LeadService } from './service.ts';
import { ITEM_JOB, NOTIFY_JOB, type LeadBatch, type LeadBatchItem, type LeadStore } from './store.ts';

export const BATCH_EVENT = 'lead.batch.completed';
/** Failures of this process rather than of the page: tried again (a full content-worker queue, a bug). */
const RETRIED: readonly ErrorCode[] = ['internal', 'overloaded'];

interface Deps {
  store: LeadStore;
  queue: DbJobQueue;
  leads: LeadService;
  settings: Readonly<LeadSettings>;
  fetch: Readonly<TrawlConfig['fetch']>;
  logger: Logger;
}

/** The event's payload: the batch's summary (its leads are read with GET /v1/lead/batch/{id}). */
export const batchEventData = (batch: LeadBatch) => ({
  id: batch.id,
  status: batch.status,
  total: batch.total,
  completed: batch.completed,
  failed: batch.failed,
  completed_at: batch.completedAt,
});

export class LeadBatchService {
  constructor(private readonly deps: Deps) {}

  async start(request: LeadBatchRequest, workspace: string, name: FieldNamer = internalNames): Promise<LeadBatch> {
    const refusal = request.webhookUrl === undefined ? null : await receiverRefusal(request.webhookUrl, this.deps.fetch);
    if (refusal) throw badRequest(`Invalid field ${name('webhookUrl')}: ${refusal}`);
    const { store, queue, settings } = this.deps;
    const batch = await store.create(
      {
        id: crypto.randomUUID(),
        workspace,
        urls: request.urls,
        noCache: request.noCache,
        ...(request.webhookUrl ? { webhookUrl: request.webhookUrl } : {}),
      },
      (db, specs) => queue.insert(db, specs),
      settings.maxAttempts,
    );
    queue.poke([ITEM_JOB]);
    this.deps.logger.info({ id: batch.id, workspace, urls: batch.total }, 'lead batch queued');
    return batch;
  }

  /** The batch with its URLs, or 404 — also for ids of another workspace. */
  async find(workspace: string, id: string): Promise<{ batch: LeadBatch; items: LeadBatchItem[] }> {
    const batch = id.length <= 64 ? await this.deps.store.get(workspace, id) : null;
    if (!batch) throw new TrawlError('not_found', `Lead batch not found: ${id.slice(0, 64)}`);
    return { batch, items: await this.deps.store.items(batch.id) };
  }

  private async record(batchId: string, position: number, outcome: Parameters<LeadStore['record']>[2]): Promise<void> {
    const { store, queue } = this.deps;
    const finished = await store.record(batchId, position, outcome, (db, specs) => queue.insert(db, specs));
    if (finished) queue.poke([NOTIFY_JOB]);
  }

  private static target(job: ClaimedJob): { batch: string; position: number } | null {
    const { batch, position } = job.payload;
    return typeof batch === 'string' && typeof position === 'number' ? { batch, position } : null;
  }

  /** `lead.item`: one URL's lead; a page that cannot be read is that URL's error (and refunded: SKIPPED). */
  readonly handleItem = async (job: ClaimedJob, signal: AbortSignal): Promise<void | typeof SKIPPED> => {
    const target = LeadBatchService.target(job);
    const batch = target ? await this.deps.store.byId(target.batch) : null;
    const item = batch && target ? await this.deps.store.item(batch.id, target.position) : null;
    if (!batch || !target || !item || item.status !== 'queued') return SKIPPED;
    await this.deps.store.markProcessing(batch.id);
    try {
      const lead = await this.deps.leads.lead({ url: item.url, noCache: batch.noCache }, batch.workspace, signal);
      await this.record(batch.id, target.position, { lead });
    } catch (err) {
      // Unexpected errors are retried; what the page or the request caused is the URL's answer.
      if (!(err instanceof TrawlError) || RETRIED.includes(err.code) || signal.aborted) throw err;
      await this.record(batch.id, target.position, { error: err.message });
      return SKIPPED;
    }
  };

  /** Attempts exhausted on an unexpected error: the URL fails with it, so the batch still finishes. */
  readonly onItemFailed = async (job: ClaimedJob, error: string): Promise<void> => {
    const target = LeadBatchService.target(job);
    if (target) await this.record(target.batch, target.position, { error });
  };

  /** Cloud mode: each URL costs one `leadBatchItem`, charged before it is read. */
  readonly meter: JobMeter = {
    bill: async (job) => {
      const target = LeadBatchService.target(job);
      const batch = target ? await this.deps.store.byId(target.batch) : null;
      if (!batch || batch.status === 'completed') return null;
      return { run: { workspace: batch.workspace, runId: batch.id, endpoint: 'lead_batch' }, units: { leadBatchItem: 1 } };
    },
    refused: async (job, _run, refusal) => {
      const target = LeadBatchService.target(job);
      if (target) await this.record(target.batch, target.position, { error: RUN_REFUSALS[refusal] });
    },
  };

  /** `lead.notify`: `lead.batch.completed` to registered webhooks and the batch's own `webhook_url`. */
  notifier(events: () => EventBus | null) {
    return async (job: ClaimedJob): Promise<void> => {
      const batch = typeof job.payload.batch === 'string' ? await this.deps.store.byId(job.payload.batch) : null;
      if (batch) {
        const ms = (batch.completedAt ? Date.parse(batch.completedAt) : Date.now()) - Date.parse(batch.createdAt);
        this.deps.logger.info(
          {
            id: batch.id,
            workspace: batch.workspace,
            status: batch.status,
            urls: batch.total,
            completed: batch.completed,
            failed: batch.failed,
            ms,
          },
          'lead batch completed',
        );
      }
      const bus = events();
      if (!batch || !bus) return;
      await bus.emit({
        type: BATCH_EVENT,
        workspace: batch.workspace,
        data: batchEventData(batch),
        ...(batch.webhookUrl ? { url: batch.webhookUrl } : {}),
      });
    };
  }
}
