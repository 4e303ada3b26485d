/**
 * The /v1 social wire: the monitor and audience bodies (limits from `[social]`) and the presenter
 * of a monitor.
 */
import { z } from 'zod';
import type { SocialSettings } from '../../../core/features/social/config.ts';
import type { Monitor } from '../../../core/features/social/store.ts';
import { receiverUrlSchema } from '../../../core/net/receiver.ts';

const numericId = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,19}$/, `must be a numeric ${what} id`);

export function socialSchemas(settings: SocialSettings) {
  const { minIntervalMinutes: min, maxIntervalMinutes: max } = settings;
  const interval = z
    .number()
    .int('must be a whole number of minutes')
    .transform((n) => Math.min(max, Math.max(min, n)))
    .describe(`Minutes between checks, clamped to ${min}–${max}; default ${settings.defaultIntervalMinutes}.`);
  const name = z.string().trim().min(1, 'must not be empty').max(200).describe('Label; defaults to the target.');
  const webhook = receiverUrlSchema.describe(
    'Receives `social.monitor.matched`; Discord, Slack, Teams workflow ' + 'and Telegram URLs get native formatting.',
  );
  const create = z
    .strictObject({
      kind: z
        .enum(['profile', 'search', 'list', 'replies'])
        .describe('`profile` (handle), `search` (query), `list` ' + '(list id), `replies` (post id).'),
      target: z.string().trim().min(1, 'must not be empty').max(512, 'must be at most 512 characters'),
      name: name.optional(),
      interval_minutes: interval.optional(),
      webhook_url: webhook.optional(),
      include_retweets: z.boolean().default(true),
      include_replies: z.boolean().default(true),
      include_quotes: z.boolean().default(true),
      min_faves: z.number().int().min(0).max(100_000_000).default(0).describe('Minimum likes.'),
      keyword: z.string().trim().min(1).max(200).optional().describe('Match only posts containing this text (case-insensitive).'),
      lang: z
        .string()
        .trim()
        .regex(/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$/, 'must be a language code such as en')
        .optional(),
    })
    .transform((body, ctx) => {
      const target = body.kind === 'profile' ? body.target.replace(/^@/, '') : body.target;
      const check =
        body.kind === 'profile'
          ? z.string().regex(/^[A-Za-z0-9_]{1,15}$/, 'must be a handle of 1 to 15 letters, digits or _')
          : body.kind === 'search'
            ? z.string()
            : numericId(body.kind === 'list' ? 'list' : 'post');
      const parsed = check.safeParse(target);
      if (!parsed.success) ctx.addIssue({ code: 'custom', path: ['target'], message: parsed.error.issues[0]!.message });
      return { ...body, target };
    });
  const update = z
    .strictObject({
      name: name.optional(),
      interval_minutes: interval.optional(),
      webhook_url: webhook.nullable().optional().describe('null stops notifications.'),
      active: z.boolean().optional().describe('false stops scheduled checks; true resumes them.'),
    })
    .refine(
      (p) => Object.values(p).some((v) => v !== undefined),
      'Request body must set at least one of name, interval_minutes, webhook_url, active',
    );
  const audience = z
    .strictObject({
      handle: z
        .string()
        .trim()
        .regex(/^@?[A-Za-z0-9_]{1,15}$/, 'must be a handle of 1 to 15 letters, digits or _')
        .optional(),
      user_id: numericId('account').optional(),
      direction: z.enum(['followers', 'following']).default('followers'),
      cursor: z.string().min(1).max(2048).optional().describe('`next_cursor` of the previous call (with its `user_id`).'),
      max_pages: z.number().int().min(1, 'must be from 1 to 10').max(10, 'must be from 1 to 10').default(2),
    })
    .refine((b) => b.handle !== undefined || b.user_id !== undefined, 'Missing required field: handle or user_id')
    // Both would leave one silently unused (and which one decides whose audience is paid for).
    .refine((b) => b.handle === undefined || b.user_id === undefined, 'Send handle or user_id, not both');
  return { create, update, audience };
}

/** The fields a monitor is created with: the answer to POST /v1/social/monitors. */
export const presentMonitorCore = (m: Monitor) => ({
  id: m.id,
  kind: m.kind,
  target: m.target,
  name: m.name,
  interval_minutes: m.intervalMinutes,
  webhook_url: m.webhookUrl,
  active: m.active,
});

export const presentMonitor = (m: Monitor) => ({
  ...presentMonitorCore(m),
  include_retweets: m.includeRetweets,
  include_replies: m.includeReplies,
  include_quotes: m.includeQuotes,
  min_faves: m.minFaves,
  keyword: m.keyword,
  lang: m.lang,
  last_checked_at: m.lastCheckedAt,
  last_matched_at: m.lastMatchedAt,
  last_error: m.lastError,
  created_at: m.createdAt,
});
