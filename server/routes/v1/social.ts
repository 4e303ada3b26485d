/**
 * Social monitors and audience export over HTTP (beta; paid in cloud mode: free and lapsed
 * workspaces get 403): `POST/GET /v1/social/monitors`, `GET/PATCH/DELETE /v1/social/monitors/{id}`,
 * `POST /v1/social/monitors/{id}/check` and `POST /v1/social/audience`, scoped to the caller's
 * workspace. Every route answers 503 naming the option to set while no social source is
 * configured. Checks are billed by the check job (the plan rate each); audience calls take
 * `max_pages` pages' worth up front and give back the pages not fetched.
 */
import { badRequest } from '../../../core/errors.ts';
import { socialFeature, SocialTokens } from '../../../core/features/social/index.ts';
import type { SocialSettings } from '../../../core/features/social/config.ts';
import type { SocialService } from '../../../core/features/social/service.ts';
import { priceOf } from '../../../core/metering.ts';
import type { TrawlConfig } from '../../../core/config-schema.ts';
import { receiverRefusal } from '../../../core/net/receiver.ts';
import { pagedQuery, pageFrom, pageOf } from '../../pagination.ts';
import { defineRoutes, route, type Route } from '../../route.ts';
import { socialOpenApi } from '../../wire/v1/social.docs.ts';
import { presentMonitor, presentMonitorCore, socialSchemas } from '../../wire/v1/social.ts';

const MONITORS_PAID = 'Social monitors (beta)';
const AUDIENCE_PAID = 'Audience export (beta)';

function socialRoutes(social: SocialService, settings: SocialSettings, config: Readonly<TrawlConfig>): Route[] {
  const schemas = socialSchemas(settings);
  const checkReceiver = async (url: string | null | undefined) => {
    const refusal = url ? await receiverRefusal(url, config.fetch) : null;
    if (refusal) throw badRequest(`Invalid field webhook_url: ${refusal}`);
  };
  const paid = MONITORS_PAID;

  return [
    route({
      method: 'POST',
      path: '/v1/social/monitors',
      input: schemas.create,
      paid,
      async handle({ body, workspace }) {
        social.source();
        await checkReceiver(body.webhook_url);
        const monitor = await social.create(workspace, {
          kind: body.kind,
          target: body.target,
          name: body.name ?? body.target,
          intervalMinutes: body.interval_minutes ?? settings.defaultIntervalMinutes,
          webhookUrl: body.webhook_url ?? null,
          includeRetweets: body.include_retweets,
          includeReplies: body.include_replies,
          includeQuotes: body.include_quotes,
          minFaves: body.min_faves,
          keyword: body.keyword ?? null,
          lang: body.lang ?? null,
        });
        return Response.json(presentMonitorCore(monitor), { status: 201 });
      },
    }),
    route({
      method: 'GET',
      path: '/v1/social/monitors',
      paid,
      query: pagedQuery(),
      async handle({ request, workspace, query }) {
        social.source();
        const page = pageFrom(query);
        const { items, total } = await social.list(workspace, page);
        return pageOf('monitors', items.map(presentMonitor), total, page, request);
      },
    }),
    route({
      method: 'GET',
      path: '/v1/social/monitors/:id',
      paid,
      async handle({ params, workspace }) {
        social.source();
        return presentMonitor(await social.get(workspace, params.id!));
      },
    }),
    route({
      method: 'PATCH',
      path: '/v1/social/monitors/:id',
      input: schemas.update,
      paid,
      async handle({ params, body, workspace }) {
        social.source();
        await checkReceiver(body.webhook_url);
        await social.update(workspace, params.id!, {
          name: body.name,
          intervalMinutes: body.interval_minutes,
          webhookUrl: body.webhook_url,
          active: body.active,
        });
        return { success: true };
      },
    }),
    route({
      method: 'DELETE',
      path: '/v1/social/monitors/:id',
      paid,
      async handle({ params, workspace }) {
        social.source();
        await social.delete(workspace, params.id!);
        return { success: true };
      },
    }),
    route({
      method: 'POST',
      path: '/v1/social/monitors/:id/check',
      paid,
      async handle({ params, workspace }) {
        await social.check(workspace, params.id!);
        return Response.json({ status: 'checking' }, { status: 202 });
      },
    }),
    route({
      method: 'POST',
      path: '/v1/social/audience',
      input: schemas.audience,
      paid: AUDIENCE_PAID,
      meter: { endpoint: 'social.audience', units: (body) => ({ audiencePage: body.max_pages }) },
      async handle({ body, caller, request, usage }) {
        const answer = await social.audience(
          { handle: body.handle, userId: body.user_id, direction: body.direction, cursor: body.cursor, maxPages: body.max_pages },
          request.signal,
        );
        const unfetched = body.max_pages - answer.pagesFetched;
        if (unfetched > 0) usage.undelivered = { audiencePage: unfetched };
        const plan = caller.account?.plan;
        return {
          user_id: answer.userId,
          direction: answer.direction,
          count: answer.users.length,
          users: answer.users.map((u) => ({
            id: u.id,
            screen_name: u.screenName,
            name: u.name,
            followers: u.followers,
            description: u.description,
            url: u.url,
          })),
          next_cursor: answer.nextCursor,
          pages_fetched: answer.pagesFetched,
          credits_charged: config.mode === 'cloud' && plan ? priceOf({ audiencePage: answer.pagesFetched }, plan, config) : 0,
          ...(answer.error ? { error: answer.error } : {}),
        };
      },
    }),
  ];
}

export const socialModule = defineRoutes({
  name: 'social',
  needs: { social: SocialTokens.Service, settings: socialFeature.settingsToken },
  routes: ({ social, settings }, env) => socialRoutes(social, settings, env.config),
  openapi: ({ settings }) => socialOpenApi(socialSchemas(settings)),
});
