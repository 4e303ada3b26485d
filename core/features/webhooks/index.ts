/**
 * The webhooks feature: the `[webhooks]` section, the registry and delivery-log tables, the store
 * and the EventBus as container services, and the `webhook.delivery` job handler (only processes
 * that run workers actually claim deliveries: to http(s) receivers, and `mailto:` ones through the
 * notify feature's Mailer).
 */
import type { InjectionToken } from 'tsyringe';
import { defineFeature, service, type FeatureContext } from '../../feature.ts';
import { Tokens } from '../../tokens.ts';
import { webhooksConfigSchema, type WebhookSettings } from './config.ts';
import { createDeliveryHandler } from './delivery.ts';
import { MetricsToken } from '../../metrics.ts';
import { createEventBus, createOutcomeListeners, DELIVERY_KIND, type OutcomeListeners } from './events.ts';
import { webhooksMigration } from './migration.ts';
import { createSecretBox } from './signing.ts';
import { createWebhookStore, WebhookStoreToken } from './store.ts';

type Ctx = FeatureContext<WebhookSettings>;

export const WebhookTokens = {
  Store: WebhookStoreToken,
  Outcomes: Symbol('DeliveryOutcomeListeners') as InjectionToken<OutcomeListeners>,
} as const;

export const webhooksFeature = defineFeature<WebhookSettings>({
  name: 'webhooks',
  description: 'Registered webhooks (POST /v1/webhooks) and signed, retried deliveries of outbound events.',
  config: webhooksConfigSchema,
  // Shipped as core's third migration; the name stays so databases that ran it find it.
  migrations: { '0003_webhooks': webhooksMigration },
  tokens: WebhookTokens,
  services: [
    service(WebhookTokens.Store, (ctx: Ctx) => createWebhookStore(ctx.resolve(Tokens.Storage), createSecretBox(ctx.settings.secretKey))),
    service(WebhookTokens.Outcomes, () => createOutcomeListeners()),
    service(Tokens.Events, (ctx: Ctx) =>
      createEventBus({
        store: ctx.resolve(WebhookTokens.Store),
        jobs: () => ctx.resolve(Tokens.Jobs),
        outcomes: ctx.resolve(WebhookTokens.Outcomes),
      }),
    ),
  ],
  jobs: (ctx: Ctx) => [
    {
      kind: DELIVERY_KIND,
      handler: createDeliveryHandler({
        http: ctx.resolve(Tokens.Http),
        store: ctx.resolve(WebhookTokens.Store),
        jobs: () => ctx.resolve(Tokens.Jobs),
        config: ctx.settings,
        logger: ctx.logger,
        metrics: ctx.resolve(MetricsToken),
        mailer: () => (ctx.has(Tokens.Mailer) ? ctx.resolve(Tokens.Mailer) : null),
        outcomes: ctx.resolve(WebhookTokens.Outcomes),
      }),
      options: { concurrency: ctx.settings.concurrency },
    },
  ],
});
