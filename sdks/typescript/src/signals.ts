/** Combining abort signals on every runtime the SDK supports: Node 18 lacks `AbortSignal.any`. */

/** A signal that aborts, with the same reason, as soon as one of `signals` does. */
export const anySignal = (signals: AbortSignal[]): AbortSignal =>
  typeof AbortSignal.any === 'function' ? AbortSignal.any(signals) : listenToAll(signals);

/** What `AbortSignal.any` does, with listeners. */
export function listenToAll(signals: AbortSignal[]): AbortSignal {
  const controller = new AbortController();
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}
