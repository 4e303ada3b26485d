/**
 * Wires the webhook registry into the composition root: the store and the EventBus as container
 * services, and the `webhook.delivery` handler on the job queue (when the queue is registered;
 * only processes that run workers actually claim deliveries).
 */
import { instanceCachingFactory, type DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import type { TrawlConfig } from '../../config-schema.ts';
import { Tokens } from '../../services.ts';
import { createDeliveryHandler } from './delivery.ts';
import { createEventBus, DELIVERY_KIND } from './events.ts';
import { createSecretBox } from './signing.ts';
import { createWebhookStore, WebhookStoreToken } from './store.ts';

export function registerWebhookServices(scope: DependencyContainer, config: Readonly<TrawlConfig>): void {
  const box = createSecretBox(config.webhooks.secretKey);
  scope.register(WebhookStoreToken, { useFactory: instanceCachingFactory((c) => createWebhookStore(c.resolve(Tokens.Storage), box)) });
  scope.register(Tokens.Events, {
    useFactory: instanceCachingFactory((c) => createEventBus({ store: c.resolve(WebhookStoreToken), jobs: () => c.resolve(Tokens.Jobs) })),
  });
}

export function registerWebhookDeliveries(scope: DependencyContainer, config: Readonly<TrawlConfig>, logger: Logger): void {
  if (!scope.isRegistered(Tokens.Jobs, true)) return;
  const jobs = scope.resolve(Tokens.Jobs);
  const handler = createDeliveryHandler({
    http: scope.resolve(Tokens.Http),
    store: scope.resolve(WebhookStoreToken),
    jobs: () => jobs,
    config: config.webhooks,
    logger: logger.child({ component: 'webhooks' }),
  });
  jobs.handle(DELIVERY_KIND, handler, { concurrency: config.webhooks.concurrency });
}
