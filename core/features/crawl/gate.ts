/**
 * Per-host politeness inside one worker process: at most `perHost` fetches of a host at once, and
 * starts spaced by the host's delay (the configured gap or its robots.txt Crawl-delay, whichever
 * is larger). The job queue asks `busyHosts()` before claiming, so pages of a saturated host stay
 * in the database for other hosts' pages or other processes; a page claimed anyway (several of one
 * host in one claim) waits here for its turn. Idle hosts are forgotten, so memory stays flat.
 */

/** What the page worker asks before fetching: this in-process gate, or the shared one on Postgres (shared-gate.ts). */
export interface PolitenessGate {
  /** Hosts this process should not claim pages of right now. */
  busyHosts(): string[];
  /** Waits for a slot of the host; resolves with the release function. */
  acquire(host: string, delayMs: number, signal?: AbortSignal): Promise<() => void>;
  /** The host asked to be left alone (a 429's Retry-After): no fetch of it starts for `ms`. */
  holdOff(host: string, ms: number): Promise<void>;
}

interface HostState {
  active: number;
  /** Earliest start of the next fetch (ms since epoch). */
  nextAt: number;
  waiters: Array<() => void>;
}

export class HostGate implements PolitenessGate {
  private readonly hosts = new Map<string, HostState>();

  constructor(
    private readonly perHost: number,
    private readonly baseDelayMs: number,
    /** Called when a host may take another fetch (the queue re-polls). */
    private readonly onFree: () => void = () => {},
  ) {}

  busyHosts(): string[] {
    const now = Date.now();
    const busy: string[] = [];
    for (const [host, state] of this.hosts) {
      if (state.active >= this.perHost || state.nextAt > now) busy.push(host);
      else if (state.active === 0 && state.waiters.length === 0) this.hosts.delete(host);
    }
    return busy;
  }

  /** Waits for a slot of the host; resolves with the release function. */
  async acquire(host: string, delayMs: number, signal?: AbortSignal): Promise<() => void> {
    const gap = Math.max(this.baseDelayMs, delayMs);
    for (;;) {
      signal?.throwIfAborted();
      const state = this.stateOf(host);
      const now = Date.now();
      if (state.active < this.perHost && state.nextAt <= now) {
        state.active++;
        state.nextAt = now + gap;
        if (gap > 0) setTimeout(this.onFree, gap).unref?.();
        let released = false;
        return () => {
          if (released) return;
          released = true;
          this.release(host);
        };
      }
      await new Promise<void>((resolve) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const wake = () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', wake);
          const index = state.waiters.indexOf(wake);
          if (index >= 0) state.waiters.splice(index, 1);
          resolve();
        };
        // Free slot but too early: wait out the gap. No free slot: wait for a release.
        if (state.active < this.perHost) timer = setTimeout(wake, state.nextAt - now);
        else state.waiters.push(wake);
        signal?.addEventListener('abort', wake, { once: true });
      });
    }
  }

  async holdOff(host: string, ms: number): Promise<void> {
    const state = this.stateOf(host);
    state.nextAt = Math.max(state.nextAt, Date.now() + ms);
    setTimeout(this.onFree, ms).unref?.();
  }

  private stateOf(host: string): HostState {
    let state = this.hosts.get(host);
    if (!state) {
      state = { active: 0, nextAt: 0, waiters: [] };
      this.hosts.set(host, state);
    }
    return state;
  }

  private release(host: string): void {
    const state = this.hosts.get(host);
    if (!state) return;
    state.active--;
    state.waiters.shift()?.();
    if (state.active === 0 && state.waiters.length === 0 && state.nextAt <= Date.now()) this.hosts.delete(host);
    this.onFree();
  }
}
