/**
 * The watch API's request bodies and answers: the zod schemas of POST and PATCH /v1/watch (their
 * fields in snake_case, limits from `[watch]`) and of the list's and diff's query strings, the
 * checks zod cannot make (selectors, the caller's interval floor), and the presenters of a watch
 * and a snapshot.
 */
import { z } from 'zod';
import { badRequest } from '../../../core/errors.ts';
import type { WatchLimits, WatchSettings } from '../../../core/features/watch/config.ts';
import {
  CHANGE_MODES,
  conditionFromJson,
  conditionToJson,
  IGNORE_PATTERNS,
  type WatchFilters,
} from '../../../core/features/watch/filters.ts';
import type { NotifyStatus } from '../../../core/features/watch/notify.ts';
import type { Snapshot, Watch } from '../../../core/features/watch/records.ts';
import { notifyConfigSchema } from '../../../core/features/notify/config.ts';
import { notifyTargetsSchema } from '../../../core/features/notify/targets.ts';
import { httpUrl } from '../../../core/model/request.ts';
import { receiverUrlSchema } from '../../../core/net/receiver.ts';
import { validateSelectors } from '../../../core/selectors.ts';
import { pagedQuery } from '../../pagination.ts';

/** `tag` and `search` narrow the list (declared here so the list's query is one place). */
export const listQuery = pagedQuery({
  tag: z.string().trim().min(1, 'must not be empty').max(50).optional(),
  search: z.string().trim().min(1, 'must not be empty').max(200).optional(),
});
const snapshotId = z.string().min(1).max(64).optional();
export const diffQuery = z.object({ from: snapshotId, to: snapshotId });

const textList = (entries: number, what: string) =>
  z.array(z.string().min(1, 'must not be empty').max(500)).max(entries, `at most ${entries} ${what}`);
const selectorList = (entries: number) =>
  z.array(z.string().trim().min(1, 'selectors must not be empty')).max(entries, `at most ${entries} selectors`);
const finite = z.number().refine(Number.isFinite, 'must be a finite number');

const DEFAULT_MAX_TARGETS = notifyConfigSchema.parse({}).maxTargets;

/**
 * `floor`: the lowest interval any caller may have (the section's, or the lowest plan's in cloud
 * mode); `maxTargets`: `notify.maxTargets`.
 */
export function watchSchemas(settings: WatchSettings, floor = settings.minIntervalMinutes, maxTargets = DEFAULT_MAX_TARGETS) {
  const { maxIntervalMinutes: max, maxIgnoreEntries: ignores, maxFilterEntries: filters, maxConditions } = settings;
  const interval = z
    .number()
    .int(`must be a whole number of minutes from ${floor} to ${max}`)
    .min(floor, `must be from ${floor} to ${max} minutes`)
    .max(max, `must be from ${floor} to ${max} minutes`);
  const condition = z
    .strictObject({
      selector: z
        .string()
        .trim()
        .min(1, 'must not be empty')
        .describe('CSS selector of the element whose number is read (the first match).'),
      below: finite.optional().describe('Notify when the number goes below this (it was not below before).'),
      above: finite.optional().describe('Notify when the number goes above this (it was not above before).'),
      change_percent: finite.positive('must be above 0').optional().describe('Notify when the number moves by at least this many percent.'),
    })
    .refine(
      (c) => c.below !== undefined || c.above !== undefined || c.change_percent !== undefined,
      'a condition needs below, above or change_percent',
    );
  const fields = {
    name: z.string().trim().min(1, 'must not be empty').max(200).describe('Label; defaults to the URL.'),
    interval_minutes: interval.describe(
      `Minutes between checks, ${floor} to ${max} (the workspace's floor may be ` + `higher); default ${settings.defaultIntervalMinutes}.`,
    ),
    webhook_url: receiverUrlSchema.describe(
      'Receives `watch.changed` (POST) when a check notifies; refused at ' + 'once when the SSRF guard forbids its address.',
    ),
    include_selectors: selectorList(filters).describe('Watch only these parts of the page (CSS selectors); empty: the main content.'),
    ignore_selectors: selectorList(ignores).describe(
      'CSS selectors removed before the content is read (a rotating ' + 'banner inside the article).',
    ),
    ignore_text: textList(ignores, 'patterns').describe(
      'Lines containing one of these (case-insensitive; `*` ' + 'matches anything) do not count as change.',
    ),
    ignore_patterns: z
      .array(z.enum(IGNORE_PATTERNS))
      .max(IGNORE_PATTERNS.length)
      .describe(
        'Volatile text masked before comparing: `clock` (a time of day or timestamp within a few minutes of the ' +
          'fetch — a page showing when it was fetched; never other times or dates), `relative_time` ("5 minutes ago"), ' +
          '`counters` ("1,234 views"), `tokens` (long random ids, nonces, cache-busters). Default all; `[]` masks ' +
          'nothing.',
      ),
    trigger_text: textList(filters, 'patterns').describe(
      'Notify only while the page contains one of these ' + '(case-insensitive; `*` matches anything).',
    ),
    block_text: textList(filters, 'patterns').describe('Stay quiet while the page contains one of these.'),
    only_new_lines: z
      .boolean()
      .describe('Only lines never seen in earlier checks count (a bounded memory of line ' + 'hashes); removed lines do not.'),
    changes: z.enum(CHANGE_MODES).describe('`added`: only added lines count; `removed`: only removed lines; `any` (default).'),
    conditions: z
      .array(condition)
      .max(maxConditions, `at most ${maxConditions} conditions`)
      .describe(
        'Numbers on the page: notify when one crosses below/above its bound or moves by change_percent. ' +
          'With conditions or restock set, only they notify.',
      ),
    restock: z
      .boolean()
      .describe("Notify when the page's offers go from out of stock to in stock " + '(JSON-LD/microdata availability, then text cues).'),
    tags: z
      .array(z.string().trim().min(1, 'must not be empty').max(50))
      .max(filters, `at most ${filters} tags`)
      .describe('Labels for grouping and GET ' + '/v1/watch?tag='),
    notify: notifyTargetsSchema(maxTargets),
  };
  const optional = {
    include_selectors: fields.include_selectors.optional(),
    ignore_selectors: fields.ignore_selectors.optional(),
    ignore_text: fields.ignore_text.optional(),
    ignore_patterns: fields.ignore_patterns.optional(),
    trigger_text: fields.trigger_text.optional(),
    block_text: fields.block_text.optional(),
    only_new_lines: fields.only_new_lines.optional(),
    changes: fields.changes.optional(),
    conditions: fields.conditions.optional(),
    restock: fields.restock.optional(),
    tags: fields.tags.optional(),
    notify: fields.notify.optional(),
  };
  const create = z.strictObject({
    url: httpUrl.describe('The page to watch.'),
    name: fields.name.optional(),
    interval_minutes: fields.interval_minutes.optional(),
    webhook_url: fields.webhook_url.optional(),
    ...optional,
  });
  const update = z
    .strictObject({
      name: fields.name.optional(),
      interval_minutes: fields.interval_minutes.optional(),
      webhook_url: fields.webhook_url.nullable().optional().describe('null stops notifications.'),
      active: z.boolean().optional().describe('false stops scheduled checks; true resumes them (a slot missed meanwhile runs once).'),
      ...optional,
    })
    .refine((p) => Object.values(p).some((v) => v !== undefined), 'Request body must set at least one field');
  return { create, update };
}

type Body = z.output<ReturnType<typeof watchSchemas>['update']> & { interval_minutes?: number };

/** What zod cannot check: CSS selectors (a 400 naming the field) and the caller's own interval floor. */
export function checkWatchBody(body: Body, limits: WatchLimits): void {
  validateSelectors('include_selectors', body.include_selectors);
  validateSelectors('ignore_selectors', body.ignore_selectors);
  validateSelectors(
    'conditions',
    body.conditions?.map((c) => c.selector),
  );
  const interval = body.interval_minutes;
  if (interval !== undefined && (interval < limits.minIntervalMinutes || interval > limits.maxIntervalMinutes)) {
    throw badRequest(`Invalid field interval_minutes: must be from ${limits.minIntervalMinutes} to ${limits.maxIntervalMinutes} minutes`);
  }
}

/** The filter fields of a body, as the store takes them (absent ones stay absent). */
export function filtersOf(body: Body): Partial<WatchFilters> & { tags?: string[]; notify?: string[] } {
  const out: Partial<WatchFilters> & { tags?: string[]; notify?: string[] } = {
    includeSelectors: body.include_selectors,
    ignoreSelectors: body.ignore_selectors,
    ignoreText: body.ignore_text,
    ignorePatterns: body.ignore_patterns ? [...new Set(body.ignore_patterns)] : undefined,
    triggerText: body.trigger_text,
    blockText: body.block_text,
    onlyNewLines: body.only_new_lines,
    changes: body.changes,
    conditions: body.conditions?.map(conditionFromJson),
    restock: body.restock,
    tags: body.tags,
    notify: body.notify,
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

/** `paused`, `error` (the last check failed), else what the last snapshot said. */
export const watchState = (w: Watch) => (!w.active ? 'paused' : w.lastError ? 'error' : w.lastState);

export const presentWatch = (w: Watch, nextCheckAt: string | null = null, notifyStatus: NotifyStatus[] = []) => ({
  id: w.id,
  url: w.url,
  name: w.name,
  interval_minutes: w.intervalMinutes,
  webhook_url: w.webhookUrl,
  active: w.active,
  state: watchState(w),
  last_checked_at: w.lastCheckedAt,
  last_changed_at: w.lastChangedAt,
  next_check_at: w.active ? nextCheckAt : null,
  last_error: w.lastError,
  include_selectors: w.includeSelectors,
  ignore_selectors: w.ignoreSelectors,
  ignore_text: w.ignoreText,
  ignore_patterns: w.ignorePatterns,
  trigger_text: w.triggerText,
  block_text: w.blockText,
  only_new_lines: w.onlyNewLines,
  changes: w.changes,
  conditions: w.conditions.map(conditionToJson),
  restock: w.restock,
  tags: w.tags,
  notify: w.notify,
  notify_status: notifyStatus.map((s) => ({
    target: s.target,
    ok: s.outcome === 'delivered',
    outcome: s.outcome,
    error: s.error,
    attempt: s.attempt,
    at: s.at,
  })),
  created_at: w.createdAt,
});

export const presentSnapshot = (s: Snapshot) => ({
  id: s.id,
  content_hash: s.contentHash,
  word_count: s.wordCount,
  status: s.status,
  notified: s.notified,
  reason: s.reason,
  excerpt: s.excerpt,
  title: s.title,
  diff_summary: s.diffSummary,
  word_count_delta: s.wordCountDelta,
  links_added: s.linksAdded,
  links_removed: s.linksRemoved,
  checked_at: s.checkedAt,
});
