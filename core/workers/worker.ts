/**
 * The one entry point every pool worker runs. It first runs the pool's per-worker setup when
 * there is one (`init`: what every task would otherwise carry, such as a config and the plugins
 * booted from it), then loads the module each task names (once per worker: modules stay loaded,
 * which is what keeps a warm worker fast), calls the named export with the input and posts back
 * the output or the error. While a task runs it reports its JavaScript heap to the pool every
 * `sampleMs`, whenever the task yields; the pool, not the worker, decides to stop a worker,
 * because only the pool can stop one that never yields.
 */
import { heapSize } from 'bun:jsc';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { periodicCollector } from './collect.ts';
import { setSectionHost } from './section.ts';
import {
  serializeError,
  WorkerPoolError,
  type InitMessage,
  type NiceMessage,
  type RunMessage,
  type TaskContext,
  type TaskFunction,
  type WorkerReply,
} from './task.ts';

declare const self: Worker;

const modules = new Map<string, Promise<Record<string, unknown>>>();
/**
 * Reading the heap walks all of its blocks (0.05–0.2 ms for a busy worker's heap, as much as a
 * small stage): a reading is reused for this long, and cooperative checks read at most this often.
 * A hostile page grows by under a megabyte a millisecond, so a reading this old is off by tens of MB.
 */
const READING_MS = 20;
const NO_CHECKS: TaskContext = { checkMemory() {} };

/** Settles once the worker's setup is done; tasks wait for it (messages arrive in order, init first). */
let ready: Promise<unknown> = Promise.resolve();
/** The task running now (one at a time): limited sections are reported under its id. */
let current = 0;
const collector = periodicCollector({ maxBytes: Infinity });
let reading = { at: -Infinity, bytes: 0 };

/** This worker's heap in bytes, read again only when the last reading is older than `READING_MS`. */
function heapBytes(): number {
  const now = performance.now();
  if (now - reading.at >= READING_MS) reading = { at: now, bytes: heapSize() };
  return reading.bytes;
}

setSectionHost({
  begin: ({ timeoutMs, timeoutError, crashError }) =>
    self.postMessage({
      type: 'section',
      id: current,
      timeoutMs,
      timeoutError: serializeError(timeoutError),
      crashError: serializeError(crashError),
    } satisfies WorkerReply),
  end: () => self.postMessage({ type: 'section-end', id: current } satisfies WorkerReply),
});

function load(url: string): Promise<Record<string, unknown>> {
  let module = modules.get(url);
  if (!module) {
    module = import(url) as Promise<Record<string, unknown>>;
    modules.set(url, module);
    module.catch(() => modules.delete(url));
  }
  return module;
}

async function call(module: string, name: string, input: unknown, ctx: TaskContext): Promise<unknown> {
  const fn = (await load(module))[name];
  if (typeof fn !== 'function') throw new Error(`${module} exports no function "${name}"`);
  return (fn as TaskFunction)(input, ctx);
}

function post(reply: WorkerReply): void {
  try {
    self.postMessage(reply);
  } catch (err) {
    // The output could not be cloned (a function, a DOM node): the task fails, the worker lives.
    if (reply.type !== 'done' || !reply.ok) throw err;
    const error = new Error(`the task's output cannot be sent between threads: ${(err as Error).message}`);
    self.postMessage({
      type: 'done',
      id: reply.id,
      ok: false,
      error: serializeError(error),
      heapBytes: reply.heapBytes,
    } satisfies WorkerReply);
  }
}

/**
 * A task's first check always compares (so a heap already over the limit stops the task at once),
 * usually against the reading an earlier task took; later checks come at most every `READING_MS`.
 */
function contextFor(message: RunMessage): TaskContext {
  let lastCheck = -Infinity;
  return {
    checkMemory() {
      if (message.memoryLimitBytes <= 0 || performance.now() - lastCheck < READING_MS) return;
      lastCheck = performance.now();
      const bytes = heapBytes();
      self.postMessage({ type: 'heap', id: message.id, heapBytes: bytes } satisfies WorkerReply);
      if (bytes > message.memoryLimitBytes) {
        throw new WorkerPoolError('memory', `the task's heap passed ${Math.round(message.memoryLimitBytes / 2 ** 20)} MB`);
      }
    },
  };
}

/** Linux sets a nice value per thread: this thread's id is the last part of /proc/thread-self. */
function lowerPriority(value: number): void {
  try {
    setPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()), value);
  } catch {
    // Not Linux, or not allowed: the worker runs at the process's priority.
  }
}

function init(message: InitMessage): void {
  ready = call(message.module, message.name, message.input, NO_CHECKS);
  ready.then(
    () => self.postMessage({ type: 'ready' } satisfies WorkerReply),
    (err: unknown) => self.postMessage({ type: 'ready', error: serializeError(err) } satisfies WorkerReply),
  );
}

async function run(message: RunMessage): Promise<void> {
  try {
    await ready;
  } catch (err) {
    post({ type: 'done', id: message.id, ok: false, error: serializeError(err), heapBytes: heapBytes(), initFailed: true });
    return;
  }
  current = message.id;
  const sampler = setInterval(() => {
    self.postMessage({ type: 'heap', id: message.id, heapBytes: heapBytes() } satisfies WorkerReply);
  }, message.sampleMs);
  try {
    const output = await call(message.module, message.name, message.input, contextFor(message));
    clearInterval(sampler);
    post({ type: 'done', id: message.id, ok: true, output, heapBytes: heapBytes() });
  } catch (err) {
    clearInterval(sampler);
    post({ type: 'done', id: message.id, ok: false, error: serializeError(err), heapBytes: heapBytes() });
  }
  collect(message.collectEveryMs);
}

/** After a reply: the worker's heap, collected now and then (collect.ts), is read again afterwards. */
function collect(everyMs: number): void {
  if (collector.now(everyMs)) reading = { at: -Infinity, bytes: 0 };
}

self.onmessage = (event: MessageEvent<NiceMessage | InitMessage | RunMessage>) => {
  if (event.data.type === 'nice') lowerPriority(event.data.value);
  else if (event.data.type === 'init') init(event.data);
  else void run(event.data);
};
