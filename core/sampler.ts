/**
 * A measurement taken every `everyMs` between `start` and `stop`, on a timer that never keeps the
 * process alive: the memory watches of the content workers and of the browser sample this way.
 */
export class Sampler {
  private timer?: ReturnType<typeof setInterval>;

  constructor(
    private readonly everyMs: number,
    private readonly sample: () => void,
  ) {}

  /** Idempotent: a running sampler keeps its timer. */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(this.sample, this.everyMs);
    this.timer.unref?.();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
