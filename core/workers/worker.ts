/**
 * The one entry point every pool worker runs. It loads the module a task names (once per worker:
 * modules stay loaded, which is what keeps a warm worker fast), calls the named export with the
 * input and posts back the output or the error. While a task runs it reports its JavaScript heap
 * to the pool every `sampleMs`, whenever the task yields; the pool, not the worker, decides to
 * stop a worker, because only the pool can stop one that never yields.
 */
import { heapSize } from 'bun:jsc';
import { serializeError, WorkerPoolError, type RunMessage, type TaskContext, type TaskFunction, type WorkerReply } from './task.ts';

declare const self: Worker;

const modules = new Map<string, Promise<Record<string, unknown>>>();
/** `heapSize()` costs tens of microseconds, so cooperative checks read it at most this often. */
const CHECK_EVERY_MS = 5;

function load(url: string): Promise<Record<string, unknown>> {
  let module = modules.get(url);
  if (!module) {
    module = import(url) as Promise<Record<string, unknown>>;
    modules.set(url, module);
    module.catch(() => modules.delete(url));
  }
  return module;
}

function post(reply: WorkerReply): void {
  try {
    self.postMessage(reply);
  } catch (err) {
    // The output could not be cloned (a function, a DOM node): the task fails, the worker lives.
    if (reply.type !== 'done' || !reply.ok) throw err;
    const error = new Error(`the task's output cannot be sent between threads: ${(err as Error).message}`);
    self.postMessage({ type: 'done', id: reply.id, ok: false, error: serializeError(error), heapBytes: reply.heapBytes } satisfies WorkerReply);
  }
}

function contextFor(message: RunMessage): TaskContext {
  let lastCheck = 0;
  return {
    checkMemory() {
      if (message.memoryLimitBytes <= 0 || performance.now() - lastCheck < CHECK_EVERY_MS) return;
      lastCheck = performance.now();
      const heapBytes = heapSize();
      self.postMessage({ type: 'heap', id: message.id, heapBytes } satisfies WorkerReply);
      if (heapBytes > message.memoryLimitBytes) {
        throw new WorkerPoolError('memory', `the task's heap passed ${Math.round(message.memoryLimitBytes / 2 ** 20)} MB`);
      }
    },
  };
}

self.onmessage = async (event: MessageEvent<RunMessage>) => {
  const message = event.data;
  const sampler = setInterval(() => {
    self.postMessage({ type: 'heap', id: message.id, heapBytes: heapSize() } satisfies WorkerReply);
  }, message.sampleMs);
  try {
    const module = await load(message.module);
    const fn = module[message.name];
    if (typeof fn !== 'function') throw new Error(`${message.module} exports no function "${message.name}"`);
    const output = await (fn as TaskFunction)(message.input, contextFor(message));
    clearInterval(sampler);
    post({ type: 'done', id: message.id, ok: true, output, heapBytes: heapSize() });
  } catch (err) {
    clearInterval(sampler);
    post({ type: 'done', id: message.id, ok: false, error: serializeError(err), heapBytes: heapSize() });
  }
};
