/**
 * Sends one notification to a list of targets, each in its own shape: a chat platform's message
 * (chat.ts), an e-mail (email.ts) or the event's payload signed as every event delivery is. All of
 * them are deliveries on the EventBus — retried with backoff, SSRF-checked, logged — and carry the
 * caller's origin, so each attempt's outcome comes back to the caller (a watch's `notify_status`).
 */
import type { Logger } from 'pino';
import type { DeliveryOrigin, EventBus } from '../../services.ts';
import { chatMessages } from './chat.ts';
import { emailOf } from './email.ts';
import type { Notification } from './notification.ts';

export interface NotifyRequest {
  workspace: string;
  /** The event's name in the delivery log, e.g. `watch.changed`. */
  event: string;
  targets: readonly string[];
  notification: Notification;
  /** What a target that is neither a chat platform nor e-mail gets (signed). */
  payload: Record<string, unknown>;
  origin: DeliveryOrigin;
}

export interface NotifierDeps {
  events: () => EventBus | null;
  logger: Logger;
}

/** Items per chat message: a notification that does not fit one message is sent as several. */
const ITEMS_PER_MESSAGE = 5;

export function createNotifier(deps: NotifierDeps) {
  return {
    async send(request: NotifyRequest): Promise<void> {
      const bus = deps.events();
      if (!bus) return deps.logger.debug({ origin: request.origin }, 'no event bus registered; notifications not sent');
      const { workspace, event, origin } = request;
      for (const url of request.targets) {
        const bodies = url.startsWith('mailto:')
          ? [emailOf(request.notification)]
          : chatMessages(url, request.notification, ITEMS_PER_MESSAGE);
        if (!bodies) {
          await bus.deliver({ workspace, event, url, body: JSON.stringify(request.payload), headers: {}, signature: 'standard', origin });
          continue;
        }
        for (const body of bodies)
          await bus.deliver({ workspace, event, url, body: JSON.stringify(body), headers: {}, signature: 'none', origin });
      }
    },
  };
}

export type Notifier = ReturnType<typeof createNotifier>;
