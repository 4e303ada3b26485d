/**
 * Social monitors and audience export over HTTP (beta; paid in cloud mode: free and lapsed
 * workspaces get 403): `POST/GET /v1/social/monitors`, `GET/PATCH/DELETE /v1/social/monitors/{id}`,
 * `POST /v1/social/monitors/{id}/check` and `POST /v1/social/audience`, scoped to the caller's
 * workspace. Every route answers 503 naming the option to set while no social source is
 * configured. Checks are billed by the check job (the plan rate each); audience calls take
 * `max_pages` pages' worth up front and give back the pages not fetched.
 */
import { z } from 'zod';
import { badRequest } from '../../../core/errors.ts';
import { socialFeature, SocialTokens } from '../../../core/features/social/index.ts';
import type { SocialSettings } from '../../../core/features/social/config.ts';
import type { SocialService } from '../../../core/features/social/service.ts';
import type { Monitor } from '../../../core/features/social/store.ts';
import { priceOf } from '../../../core/metering.ts';
import type { TrawlConfig } from '../../../core/config-schema.ts';
import { receiverRefusal, receiverUrlSchema } from '../../../core/net/receiver.ts';
import { pagedQuery, pageFrom, pageOf } from '../../pagination.ts';
import { defineRoutes, route, type Route } from '../../route.ts';
import { socialOpenApi } from '../../wire/v1/social.docs.ts';

const MONITORS_PAID = 'Social monitors (beta)';
const AUDIENCE_PAID = 'Audience export (beta)';
const numericId = (what: string) => z.string().trim().regex(/^\d{1,19}$/, `must be a numeric ${what} id`);

export function socialSchemas(settings: SocialSettings) {
  const { minIntervalMinutes: min, maxIntervalMinutes: max } = settings;
  const interval = z.number().int('must be a whole number of minutes').transform((n) => Math.min(max, Math.max(min, n)))
    .describe(`Minutes between checks, clamped to ${min}–${max}; default ${settings.defaultIntervalMinutes}.`);
  const name = z.string().trim().min(1, 'must not be empty').max(200).describe('Label; defaults to the target.');
  const webhook = receiverUrlSchema.describe('Receives `social.monitor.matched`; Discord, Slack, Teams workflow and Telegram URLs get native formatting.');
  const create = z.strictObject({
    kind: z.enum(['profile', 'search', 'list', 'replies']).describe('`profile` (handle), `search` (query), `list` (list id), `replies` (post id).'),
    target: z.string().trim().min(1, 'must not be empty').max(512, 'must be at most 512 characters'),
    name: name.optional(),
    interval_minutes: interval.optional(),
    webhook_url: webhook.optional(),
    include_retweets: z.boolean().default(true),
    include_replies: z.boolean().default(true),
    include_quotes: z.boolean().default(true),
    min_faves: z.number().int().min(0).max(100_000_000).default(0).describe('Minimum likes.'),
    keyword: z.string().trim().min(1).max(200).optional().describe('Match only posts containing this text (case-insensitive).'),
    lang: z.string().trim().regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$/, 'must be a language code such as en').optional(),
  }).transform((body, ctx) => {
    const target = body.kind === 'profile' ? body.target.replace(/^@/, '') : body.target;
    const check = body.kind === 'profile' ? z.string().regex(/^[A-Za-z0-9_]{1,15}$/, 'must be a handle of 1 to 15 letters, digits or _')
      : body.kind === 'search' ? z.string() : numericId(body.kind === 'list' ? 'list' : 'post');
    const parsed = check.safeParse(target);
    if (!parsed.success) ctx.addIssue({ code: 'custom', path: ['target'], message: parsed.error.issues[0]!.message });
    return { ...body, target };
  });
  const update = z.strictObject({
    name: name.optional(),
    interval_minutes: interval.optional(),
    webhook_url: webhook.nullable().optional().describe('null stops notifications.'),
    active: z.boolean().optional().describe('false stops scheduled checks; true resumes them.'),
  }).refine((p) => Object.values(p).some((v) => v !== undefined), 'Request body must set at least one of name, interval_minutes, webhook_url, active');
  const audience = z.strictObject({
    handle: z.string().trim().regex(/^@?[A-Za-z0-9_]{1,15}$/, 'must be a handle of 1 to 15 letters, digits or _').optional(),
    user_id: numericId('account').optional(),
    direction: z.enum(['followers', 'following']).default('followers'),
    cursor: z.string().min(1).max(2048).optional().describe('`next_cursor` of the previous call (with its `user_id`).'),
    max_pages: z.number().int().min(1, 'must be from 1 to 10').max(10, 'must be from 1 to 10').default(2),
  }).refine((b) => b.handle !== undefined || b.user_id !== undefined, 'Missing required field: handle or user_id')
    // Both would leave one silently unused (and which one decides whose audience is paid for).
    .refine((b) => b.handle === undefined || b.user_id === undefined, 'Send handle or user_id, not both');
  return { create, update, audience };
}

const core = (m: Monitor) => ({ id: m.id, kind: m.kind, target: m.target, name: m.name, interval_minutes: m.intervalMinutes, webhook_url: m.webhookUrl, active: m.active });

export const presentMonitor = (m: Monitor) => ({
  ...core(m),
  include_retweets: m.includeRetweets, include_replies: m.includeReplies, include_quotes: m.includeQuotes, min_faves: m.minFaves,
  keyword: m.keyword, lang: m.lang, last_checked_at: m.lastCheckedAt, last_matched_at: m.lastMatchedAt, last_error: m.lastError, created_at: m.createdAt,
});

function socialRoutes(social: SocialService, settings: SocialSettings, config: Readonly<TrawlConfig>): Route[] {
  const schemas = socialSchemas(settings);
  const checkReceiver = async (url: string | null | undefined) => {
    const refusal = url ? await receiverRefusal(url, config.fetch) : null;
    if (refusal) throw badRequest(`Invalid field webhook_url: ${refusal}`);
  };
  const paid = MONITORS_PAID;

  return [
    route({
      method: 'POST', path: '/v1/social/monitors', body: 'manual', input: schemas.create, paid,
      async handle({ body, workspace }) {
        social.source();
        await checkReceiver(body.webhook_url);
        const monitor = await social.create(workspace, {
          kind: body.kind, target: body.target, name: body.name ?? body.target, intervalMinutes: body.interval_minutes ?? settings.defaultIntervalMinutes,
          webhookUrl: body.webhook_url ?? null, includeRetweets: body.include_retweets, includeReplies: body.include_replies, includeQuotes: body.include_quotes,
          minFaves: body.min_faves, keyword: body.keyword ?? null, lang: body.lang ?? null,
        });
        return Response.json(core(monitor), { status: 201 });
      },
    }),
    route({
      method: 'GET', path: '/v1/social/monitors', paid, query: pagedQuery(),
      async handle({ request, workspace, query }) {
        social.source();
        const page = pageFrom(query);
        const { items, total } = await social.list(workspace, page);
        return pageOf('monitors', items.map(presentMonitor), total, page, request);
      },
    }),
    route({
      method: 'GET', path: '/v1/social/monitors/:id', paid,
      async handle({ params, workspace }) {
        social.source();
        return presentMonitor(await social.get(workspace, params.id!));
      },
    }),
    route({
      method: 'PATCH', path: '/v1/social/monitors/:id', body: 'manual', input: schemas.update, paid,
      async handle({ params, body, workspace }) {
        social.source();
        await checkReceiver(body.webhook_url);
        await social.update(workspace, params.id!, { name: body.name, intervalMinutes: body.interval_minutes, webhookUrl: body.webhook_url, active: body.active });
        return { success: true };
      },
    }),
    route({
      method: 'DELETE', path: '/v1/social/monitors/:id', paid,
      async handle({ params, workspace }) {
        social.source();
        await social.delete(workspace, params.id!);
        return { success: true };
      },
    }),
    route({
      method: 'POST', path: '/v1/social/monitors/:id/check', paid,
      async handle({ params, workspace }) {
        await social.check(workspace, params.id!);
        return Response.json({ status: 'checking' }, { status: 202 });
      },
    }),
    route({
      method: 'POST', path: '/v1/social/audience', body: 'manual', input: schemas.audience, paid: AUDIENCE_PAID,
      meter: { endpoint: 'social.audience', units: (body) => ({ audiencePage: body.max_pages }) },
      async handle({ body, caller, request, usage }) {
        const answer = await social.audience({ handle: body.handle, userId: body.user_id, direction: body.direction, cursor: body.cursor, maxPages: body.max_pages }, request.signal);
        const unfetched = body.max_pages - answer.pagesFetched;
        if (unfetched > 0) usage.undelivered = { audiencePage: unfetched };
        const plan = caller.account?.plan;
        return {
          user_id: answer.userId, direction: answer.direction, count: answer.users.length,
          users: answer.users.map((u) => ({ id: u.id, screen_name: u.screenName, name: u.name, followers: u.followers, description: u.description, url: u.url })),
          next_cursor: answer.nextCursor, pages_fetched: answer.pagesFetched,
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
