/**
 * Sends a run's events to its own webhook (hooks.ts), rendered by the wire format the request
 * named. Deliveries are webhook jobs like any (retried, SSRF-guarded, logged), next to the events
 * registered webhooks get in Trawl's own shape. Apart from hooks.ts because it reads the stored
 * request, whose schema holds the hook's.
 */
import type { Logger } from 'pino';
import type { EventBus } from '../../services.ts';
import type { HookEvent, RunHookEvent, RunHookFormats } from './hooks.ts';
import { storedRequest } from './legacy.ts';
import type { RunRow } from './rows.ts';

export type HookSender = (run: RunRow, type: HookEvent, page?: RunHookEvent['page']) => Promise<void>;

/** Sends a run's events to its hook, when it has one that wants them; the formats and bus are read when needed. */
export function createHookSender(formats: () => RunHookFormats, events: () => EventBus | null, logger: Logger): HookSender {
  return async (run, type, page) => {
    const hook = storedRequest(run.kind, run.request).hook;
    if (!hook?.events.includes(type)) return;
    const format = formats()[hook.format];
    const bus = events();
    if (!format || !bus) {
      logger.warn({ id: run.id, format: hook.format }, 'run webhook not sent: its format or the event bus is not available');
      return;
    }
    const body = format.render({ type, run, hook, page });
    await bus.deliver({
      workspace: run.workspace,
      event: String(body.type ?? type),
      url: hook.url,
      body: JSON.stringify(body),
      headers: hook.headers,
      signature: format.signature,
    });
  };
}
