/**
 * Where the content stages run, seen from the server thread: in a content worker of the pool (a
 * server), or right here (pool size 0, a pool-less Trawl such as unit tests with their own plugin
 * lists). A worker gets the time left until the job's deadline and the job's signal; when either
 * ends, the pool terminates the worker mid-task and the request fails at that moment. Pages queue
 * in a fair order between workspaces (FairOrder), and a workspace holding its share of the workers
 * lets another's waiting page pass (workers/share.ts). Pool failures become TrawlErrors: a deadline
 * or cancellation is the scrape's `timeout`, a memory stop or crash is a 422 naming the limit, a
 * full queue or closed pool a 503 (`overloaded`).
 */
import type { Logger } from 'pino';
import type { TrawlConfig } from './config-schema.ts';
import { applyContentOutput, BOOT_TASK, CONTENT_TASK, contentInput, type PluginListRef } from './content-task.ts';
import { runContentStages, type ContentOutcome } from './content-stages.ts';
import type { PageDocument } from './document.ts';
import { TrawlError, type ErrorCode } from './errors.ts';
import type { Job } from './job.ts';
import type { PluginRegistry } from './registry.ts';
import { reviveError, type SerializedError, type TaskRef } from './workers/task.ts';
import { WorkerPool, WorkerPoolError } from './workers/pool.ts';

/** The pool's own timer is a backstop: the job's signal, which carries the scrape's message, fires first. */
const BACKSTOP_MS = 250;

/** A content worker's TrawlError comes back as one, with its code, stage and plugin. */
export function reviveTrawlError(data: SerializedError): Error {
  if (data.name !== 'TrawlError' || typeof data.fields.code !== 'string') return reviveError(data);
  const { code, stage, pluginId } = data.fields as { code: ErrorCode; stage?: string; pluginId?: string };
  const error = new TrawlError(code, data.message, { stage, pluginId });
  if (data.stack) error.stack = data.stack;
  return error;
}

/**
 * The content pool of a Trawl instance, from the `[workers]` config. Every new worker (a
 * replacement too) boots the plugins from the config as soon as it starts (the pool's `init`), so
 * a page that follows a killed one does not wait for that and no page carries the config.
 */
export function createContentPool(config: Readonly<TrawlConfig>, plugins?: PluginListRef): WorkerPool {
  const { size, maxQueue, maxHeavy, memoryLimitMb, maxRssMb, collectEveryMs, nice } = config.workers;
  const init = plugins ? { ref: BOOT_TASK, input: { plugins, config } } : undefined;
  // A hostile page grows by ~750 MB a second: the budget is read every 25 ms (a read costs microseconds).
  const sampleMs = 25;
  return new WorkerPool({
    size,
    maxQueue,
    maxHeavy,
    memoryLimitMb,
    maxRssMb,
    collectEveryMs,
    nice,
    sampleMs,
    init,
    timeoutMs: config.scrape.timeoutMs,
    reviveError: reviveTrawlError,
  });
}

/** Starts every worker and boots its plugins now, not on the first pages (a server at start-up). */
export function warmContentPool(pool: WorkerPool, logger: Logger): void {
  pool.prestart().catch((err) => logger.warn({ err }, 'a content worker did not start'));
}

/**
 * Places in the content queue shared fairly between workspaces: each workspace's pages are spaced
 * `stepMs` apart from its previous one (a virtual clock per workspace), so a burst of one tenant's
 * pages keeps its own order but a page of another tenant that arrives meanwhile goes ahead of the
 * burst's tail instead of waiting through all of it.
 */
export class FairOrder {
  private readonly last = new Map<string, number>();

  constructor(private readonly stepMs = 1000) {}

  next(workspace: string, now = performance.now()): number {
    const order = Math.max(now, (this.last.get(workspace) ?? -Infinity) + this.stepMs);
    this.last.set(workspace, order);
    // Clocks left behind by the present belong to idle workspaces: they would start at `now` anyway.
    if (this.last.size > 1024) for (const [key, at] of this.last) if (at < now) this.last.delete(key);
    return order;
  }
}

export class ContentRunner {
  /**
   * When each job first asked for a worker. A page fetched again (an app shell the browser
   * rendered) keeps its place: its second task goes ahead of pages that arrived after it, instead
   * of waiting through the whole queue twice with a browser render in between.
   */
  private readonly arrivals = new WeakMap<Job, number>();
  private readonly fair = new FairOrder();

  constructor(
    private readonly registry: PluginRegistry,
    private readonly logger: Logger,
    /** No pool, no plugin list (or pool size 0): in-process. */
    private readonly pool?: { pool: WorkerPool; config: Readonly<TrawlConfig> },
  ) {}

  /**
   * Other CPU work on untrusted input (a feature's parse): the task `ref` in a content worker, or
   * `here` on this thread when there is no pool. `here` gets the server's registry, the worker's
   * task the one its worker booted (content-task.ts `bootedRegistry`), so both see the same plugins.
   */
  async task<I, O>(
    ref: TaskRef<I, O>,
    input: I,
    here: (registry: PluginRegistry) => O | Promise<O>,
    limits: { signal: AbortSignal; deadline: number; heavy?: boolean },
  ): Promise<O> {
    if (!this.pool || this.pool.pool.size === 0) return here(this.registry);
    const left = limits.deadline - Date.now();
    try {
      return await this.pool.pool.run(ref, input, {
        signal: limits.signal,
        heavy: limits.heavy,
        timeoutMs: Number.isFinite(left) ? Math.max(0, left) + BACKSTOP_MS : undefined,
      });
    } catch (err) {
      throw poolFailure(err, limits.signal);
    }
  }

  async run(doc: PageDocument, refetched: boolean): Promise<ContentOutcome> {
    if (!this.pool || this.pool.pool.size === 0) return runContentStages(doc, this.registry, this.logger, { refetched });
    const { pool, config } = this.pool;
    const { job } = doc;
    const { input, transfer } = contentInput(doc, refetched);
    const left = job.deadline - Date.now();
    let order = this.arrivals.get(job);
    if (order === undefined) this.arrivals.set(job, (order = this.fair.next(job.workspace)));
    const options = {
      order,
      group: job.workspace,
      timeoutMs: Number.isFinite(left) ? Math.max(0, left) + BACKSTOP_MS : undefined,
      signal: job.signal,
      heavy: input.response.body.byteLength >= config.workers.heavyBytes,
      transfer,
    };
    try {
      const output = await pool.run(CONTENT_TASK, input, options);
      applyContentOutput(doc, output);
      return output.rerender ? { rerender: output.rerender } : {};
    } catch (err) {
      throw poolFailure(err, job.signal);
    }
  }
}

/** What a request answers when the pool gave up on its page. */
export function poolFailure(err: unknown, signal: AbortSignal): unknown {
  if (!(err instanceof WorkerPoolError)) return err;
  switch (err.kind) {
    case 'timeout':
    case 'aborted':
      return signal.reason instanceof TrawlError ? signal.reason : new TrawlError('timeout', 'Timed out at the deadline');
    case 'memory':
      return new TrawlError(
        'unprocessable',
        `The page needs more memory than the server allows (workers.memoryLimitMb, workers.maxRssMb): ${err.message}`,
      );
    case 'crashed':
      return new TrawlError('unprocessable', `Processing the page crashed its worker: ${err.message}`);
    default:
      return new TrawlError('overloaded', `The server is too busy to process the page (${err.message}); retry later`);
  }
}
