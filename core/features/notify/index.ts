/**
 * The notify feature: the `[notify]` section, the Mailer (`[notify.smtp]`, for `mailto:` deliveries
 * by the webhooks feature's handler) and the Notifier that features send notifications through —
 * a chat platform's own message, an e-mail, or the signed payload, per target.
 */
import type { InjectionToken } from 'tsyringe';
import { defineFeature, service, type FeatureContext } from '../../feature.ts';
import { Tokens } from '../../tokens.ts';
import { notifyConfigSchema, type NotifySettings } from './config.ts';
import { createMailer } from './email.ts';
import { createNotifier, type Notifier } from './send.ts';

export const NotifyTokens = {
  Notifier: Symbol('Notifier') as InjectionToken<Notifier>,
} as const;

type Ctx = FeatureContext<NotifySettings>;

export const notifyFeature = defineFeature<NotifySettings>({
  name: 'notify',
  description: 'Notifications to chat platforms (Slack, Discord, Teams, Telegram), e-mail over SMTP and signed webhooks.',
  config: notifyConfigSchema,
  tokens: NotifyTokens,
  services: [
    service(Tokens.Mailer, (ctx: Ctx) => createMailer(ctx.settings.smtp)),
    service(NotifyTokens.Notifier, (ctx: Ctx) =>
      createNotifier({
        events: () => (ctx.has(Tokens.Events) ? ctx.resolve(Tokens.Events) : null),
        logger: ctx.logger,
      }),
    ),
  ],
});
