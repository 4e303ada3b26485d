/**
 * Progress of long work (crawl, batch, lead batch) on stderr, so stdout stays the answer: on a
 * terminal a live bar (redrawn in place by ora) with done/total, rate and ETA; anywhere
 * else (a pipe, a log file, CI) plain lines, at most one a second and one at the end, that read
 * well in a log. Both show the same numbers, computed here.
 */
import ora from 'ora';

export interface Progress {
  update(done: number, total: number): void;
  /** The last numbers shown, then the bar is left as it is. */
  stop(): void;
}

/** `1m05s`, `42s`; `?` until there is a rate to go by. */
export function duration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** Items a second since `started` and the time left at that rate. */
export function pace(done: number, total: number, started: number, now = Date.now()): { rate: string; eta: string } {
  const seconds = Math.max((now - started) / 1000, 0.001);
  const perSecond = done / seconds;
  return { rate: perSecond.toFixed(1), eta: done === 0 ? '?' : duration((total - done) / perSecond) };
}

export interface ProgressOptions {
  /** What is counted: `pages`, `URLs`, `sites`. */
  unit: string;
  /** Shown in front: `crawl`, `batch`. */
  label: string;
  /** Draw a bar (a terminal) or print lines. Default: whether stderr is a terminal. */
  tty?: boolean;
  stream?: NodeJS.WriteStream;
}

export function startProgress(options: ProgressOptions): Progress {
  const stream = options.stream ?? process.stderr;
  const started = Date.now();
  // A terminal of no known width (a pseudo-terminal nobody sized) cannot be redrawn in place: lines then.
  const tty = (options.tty ?? stream.isTTY === true) && (stream.columns ?? 0) > 0;
  return tty ? bar(options, stream, started) : lines(options, stream, started);
}

const BAR_WIDTH = 24;

/** `[#########---------------]`: the share done, drawn in a fixed width. */
export function barOf(done: number, total: number): string {
  const filled = total > 0 ? Math.min(BAR_WIDTH, Math.round((done / total) * BAR_WIDTH)) : 0;
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
}

function bar({ unit, label }: ProgressOptions, stream: NodeJS.WriteStream, started: number): Progress {
  // ora redraws the line in place, hides the cursor and restores it on exit; the text is the bar.
  // Enabled explicitly: ora's own guess turns itself off under CI=true even on a terminal.
  const spinner = ora({ stream, isEnabled: true, discardStdin: false });
  const text = (done: number, total: number) => {
    const { rate, eta } = pace(done, total, started);
    return `${label} ${barOf(done, total)} ${done}/${total} ${unit} | ${rate}/s | ETA ${eta}`;
  };
  return {
    update(done, total) {
      spinner.text = text(done, total);
      if (!spinner.isSpinning) spinner.start();
    },
    stop() {
      if (spinner.isSpinning) spinner.stopAndPersist({ symbol: '' });
    },
  };
}

function lines({ unit, label }: ProgressOptions, stream: NodeJS.WriteStream, started: number): Progress {
  let last = { done: -1, total: -1, at: 0 };
  // Numbers that came within the second after a line: printed by the next line or at the end.
  let pending: { done: number; total: number } | undefined;
  const print = (done: number, total: number) => {
    const { rate, eta } = pace(done, total, started);
    stream.write(`${label}: ${done}/${total} ${unit}, ${rate}/s, ETA ${eta}\n`);
    last = { done, total, at: Date.now() };
    pending = undefined;
  };
  return {
    update(done, total) {
      if (done === last.done && total === last.total) return;
      if (Date.now() - last.at >= 1000) print(done, total);
      else pending = { done, total };
    },
    stop() {
      if (pending) print(pending.done, pending.total);
    },
  };
}
