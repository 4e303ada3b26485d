/**
 * The browser pool (core/services.ts `BrowserPool`): one Chromium serving every job, each job in a
 * fresh context of its own (cookies, storage and cache never cross jobs; with the SSRF guard on,
 * each context has its own guard proxy), at most `browser.maxContexts` at once, plus one context
 * opened ahead as a warm spare so the next job does not wait for a renderer to start. The browser
 * starts on first use, is replaced after `recycleAfterPages` pages (a retiring one finishes its
 * jobs first) and after a crash or disconnect (the jobs it was serving fail with a clear error; the
 * next job gets a new browser). Every job has a deadline; when it passes, its context is closed,
 * which ends whatever the page was doing, and a context that will not close takes the browser down.
 * Memory: each context's guard proxy bounds the bytes a page loads, and the browser's processes are
 * watched while jobs run (memory.ts); a tab killed for memory, or a page over its byte budget,
 * ends its job at once with a 422 naming the setting.
 */
import type { BrowserContextOptions } from 'playwright-core';
import type { Logger } from 'pino';
import type { TrawlConfig } from '../config-schema.ts';
import { TrawlError } from '../errors.ts';
import { privateNetworkHint, type AddressPolicy } from '../net/address-guard.ts';
import { forbiddenAddressReason } from '../net/ssrf.ts';
import { ProxyRouter } from '../net/proxies.ts';
import type { BrowserJobOptions, BrowserPool, BrowserPoolStats, BrowserRequestFailure, BrowserSession } from '../services.ts';
import type { Metrics } from '../metrics.ts';
import { fetchFailureReason } from '../net/fetch-reasons.ts';
import { openContext, type ContextRules, type PreparedContext } from './context.ts';
import { CLOSE_GRACE_MS, crashed, killInstance, settleWithin, shuttingDown, startInstance, type Instance } from './instance.ts';
import { chromiumMissingReason, type BrowserConfig } from './launch.ts';
import { BrowserMemoryWatch } from './memory.ts';
import { ContextSlots, withinDeadline } from './slots.ts';

export interface BrowserPoolHooks {
  /**
   * Replaces the address check used when `allowPrivateNetwork` is false, as in the HTTP client.
   * Production code never sets it; tests use it to let one loopback address play a public server.
   */
  addressPolicy?: AddressPolicy;
  /** The process's proxy router, shared with the HTTP client; without one the pool makes its own from the config. */
  proxies?: ProxyRouter;
}

/** A tab that crashes this soon after the memory watch killed a renderer was that renderer's. */
const KILL_WINDOW_MS = 5000;

export class ChromiumPool implements BrowserPool {
  private readonly policy: AddressPolicy | null;
  private readonly refusalHint: string;
  private readonly blockResources: ReadonlySet<string>;
  private readonly proxies: ProxyRouter;
  private readonly instances = new Set<Instance>();
  private readonly slots: ContextSlots;
  private current: Instance | null = null;
  /** A context opened ahead for the next job; it counts against no slot. */
  private spare: { instance: Instance; key: string; ready: Promise<PreparedContext> } | null = null;
  private launching: Promise<Instance> | null = null;
  private launches = 0;
  private pagesServed = 0;
  private closed = false;
  private readonly memory: BrowserMemoryWatch;
  /** The memory watch's last kill: a tab crash soon after it is reported with its message. */
  private lastKill = { at: -Infinity, message: '' };

  constructor(
    private readonly config: BrowserConfig,
    private readonly fetch: Readonly<TrawlConfig['fetch']>,
    private readonly logger: Logger,
    hooks: BrowserPoolHooks = {},
    private readonly metrics?: Metrics,
    mode: TrawlConfig['mode'] = 'self-hosted',
    /** `workers.maxRssMb`: this process and the browser together; 0 = none. */
    serverBudgetMb = 0,
  ) {
    this.policy = fetch.allowPrivateNetwork ? null : (hooks.addressPolicy ?? forbiddenAddressReason);
    this.refusalHint = privateNetworkHint(mode);
    this.blockResources = new Set(config.blockResources);
    this.proxies = hooks.proxies ?? new ProxyRouter(fetch);
    this.slots = new ContextSlots(config.maxContexts);
    const pids = () => [...this.instances].flatMap((i) => (i.pid !== null && !i.dead ? [i.pid] : []));
    this.memory = new BrowserMemoryWatch(
      pids,
      { maxRendererMb: config.maxRendererMb, maxTotalMb: serverBudgetMb },
      config.memorySampleMs,
      (pid, message) => {
        this.lastKill = { at: performance.now(), message };
        this.logger.warn({ pid }, message);
      },
    );
  }

  unavailableReason(): string | null {
    return chromiumMissingReason(this.config.executablePath);
  }

  stats(): BrowserPoolStats {
    const live = this.current && !this.current.dead ? this.current : null;
    return {
      pid: live?.pid ?? null,
      launches: this.launches,
      pagesServed: this.pagesServed,
      activeContexts: this.slots.inUse,
      openContexts: live?.browser.contexts().length ?? 0,
      waiting: this.slots.waiting,
    };
  }

  async withPage<T>(options: BrowserJobOptions, work: (session: BrowserSession) => Promise<T>): Promise<T> {
    if (this.closed) throw shuttingDown();
    const missing = this.unavailableReason();
    if (missing) throw new TrawlError('capability_missing', missing);
    await this.slots.acquire(options.signal);
    this.memory.start();
    let instance: Instance | undefined;
    let prepared: PreparedContext | undefined;
    let stop: (err: TrawlError) => void = () => {};
    const stopped = new Promise<never>((_, reject) => {
      stop = reject;
    });
    stopped.catch(() => {});
    try {
      instance = await this.instance();
      instance.active++;
      instance.served++;
      this.pagesServed++;
      const upstream = this.proxies.route(options.proxy, options.target ? new URL(options.target).hostname : '').url;
      prepared = await this.take(instance, options.context, upstream);
      prepared.proxy.onLimit = (message) => stop(new TrawlError('unprocessable', message));
      prepared.page.once('crash', () => {
        if (performance.now() - this.lastKill.at < KILL_WINDOW_MS) stop(new TrawlError('unprocessable', this.lastKill.message));
      });
      const job = Promise.race([work({ page: prepared.page, failures: prepared.proxy.failures }), stopped]);
      return await withinDeadline(job, options, this.config.jobTimeoutMs);
    } catch (err) {
      const gone = instance && (instance.dead || !instance.browser.isConnected());
      if (!gone || (err instanceof TrawlError && err.code === 'timeout')) throw err;
      throw this.closed ? shuttingDown() : crashed();
    } finally {
      if (this.slots.inUse <= 1) this.memory.stop();
      if (prepared && instance) {
        this.countFailures(prepared.proxy.failures);
        await this.closeContext(prepared, instance);
      }
      if (instance) {
        instance.active--;
        if (instance.retiring && instance.active === 0) void this.shut(instance);
      }
      this.slots.release();
    }
  }

  /** The page's connections that did not happen, as fetch outcomes (the guard's refusals among them). */
  private countFailures(failures: readonly BrowserRequestFailure[]): void {
    for (const failure of failures)
      this.metrics?.fetches.inc({
        client: 'browser',
        outcome: 'failed',
        reason: failure.refused ? 'ssrf_refused' : fetchFailureReason(failure.reason),
      });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.memory.stop();
    this.slots.failAll(shuttingDown());
    await this.discardSpare();
    const launching = this.launching;
    // A launch in flight sees `closed` when it finishes and shuts its browser itself.
    if (launching) await launching.catch(() => {});
    await Promise.all([...this.instances].map((i) => this.shut(i)));
    this.current = null;
  }

  /** The warm spare when it fits the job (same browser, same context options), else a new context; then warms the next one. */
  private async take(instance: Instance, options: BrowserContextOptions | undefined, upstream: string | null): Promise<PreparedContext> {
    const key = JSON.stringify([options ?? {}, upstream]);
    let prepared: PreparedContext | null = null;
    if (this.spare?.instance === instance && this.spare.key === key) {
      const { ready } = this.spare;
      this.spare = null;
      prepared = await ready.catch(() => null);
    } else {
      void this.discardSpare(); // made for another browser, other options (mobile) or another proxy
    }
    prepared ??= await openContext(instance.browser, options, this.rules(instance, upstream));
    // The next job's context opens while this one works; one spare at most, never for a browser on its way out.
    if (this.config.warmSpare && !this.spare && !this.closed && !instance.retiring && instance.served < this.config.recycleAfterPages) {
      const ready = openContext(instance.browser, options, this.rules(instance, upstream));
      ready.catch(() => {}); // a spare that fails to open is simply not used
      this.spare = { instance, key, ready };
    }
    return prepared;
  }

  private rules(instance: Instance, upstream: string | null): ContextRules {
    const limits = { maxResponseBytes: this.config.maxResponseBytes, maxPageBytes: this.config.maxPageBytes };
    return {
      fetch: this.fetch,
      policy: this.policy,
      limits,
      refusalHint: this.refusalHint,
      blockResources: this.blockResources,
      userAgent: instance.userAgent,
      upstream,
    };
  }

  private async discardSpare(): Promise<void> {
    const spare = this.spare;
    this.spare = null;
    const prepared = await spare?.ready.catch(() => null);
    if (prepared && spare) await this.closeContext(prepared, spare.instance);
  }

  private async closeContext(prepared: PreparedContext, instance: Instance): Promise<void> {
    const closed = instance.dead || (await settleWithin(prepared.context.close(), CLOSE_GRACE_MS));
    await prepared.proxy.close();
    if (closed) return;
    // A renderer stuck in a script can keep its context from closing; the browser goes instead.
    this.logger.warn({ pid: instance.pid }, 'a browser context did not close; killing the browser');
    killInstance(instance);
  }

  private async instance(): Promise<Instance> {
    const current = this.current;
    if (current && !current.dead && current.served < this.config.recycleAfterPages) return current;
    if (current) {
      this.current = null;
      current.retiring = true;
      if (this.spare?.instance === current) void this.discardSpare();
      if (current.active === 0) void this.shut(current);
    }
    this.launching ??= this.launch().finally(() => {
      this.launching = null;
    });
    return this.launching;
  }

  private async launch(): Promise<Instance> {
    if (this.closed) throw shuttingDown();
    const started = performance.now();
    const instance = await startInstance(this.config, this.fetch.resolve);
    this.launches++;
    instance.browser.on('disconnected', () => {
      instance.dead = true;
      this.instances.delete(instance);
      if (this.current === instance) this.current = null;
      if (!instance.retiring && !this.closed)
        this.logger.warn({ pid: instance.pid }, 'browser disconnected; the next job starts a new one');
    });
    if (this.closed) {
      await this.shut(instance);
      throw shuttingDown();
    }
    this.instances.add(instance);
    this.current = instance;
    this.logger.info({ pid: instance.pid, ms: Math.round(performance.now() - started) }, 'browser launched');
    return instance;
  }

  private shut(instance: Instance): Promise<void> {
    instance.retiring = true;
    instance.closing ??= (async () => {
      if (!(await settleWithin(instance.browser.close(), CLOSE_GRACE_MS))) killInstance(instance);
      this.instances.delete(instance);
    })();
    return instance.closing;
  }
}

export function createBrowserPool(
  config: Readonly<TrawlConfig>,
  logger: Logger,
  hooks: BrowserPoolHooks = {},
  metrics?: Metrics,
): BrowserPool {
  return new ChromiumPool(config.browser, config.fetch, logger, hooks, metrics, config.mode, config.workers.maxRssMb);
}
