/**
 * Watches over HTTP: `POST/GET /v1/watch`, `GET/PATCH/DELETE /v1/watch/{id}`, `POST
 * /v1/watch/{id}/check` and `GET /v1/watch/{id}/diff` (two snapshots compared; the dashboard's
 * diff view), all scoped to the caller's workspace (another workspace's id answers 404). Checks
 * are billed by the check job itself (one `watchCheck` each, scheduled or manual).
 */
import { z } from 'zod';
import { badRequest } from '../../../core/errors.ts';
import { WatchTokens, watchFeature } from '../../../core/features/watch/index.ts';
import type { WatchSettings } from '../../../core/features/watch/config.ts';
import type { Snapshot, Watch } from '../../../core/features/watch/store.ts';
import type { WatchService } from '../../../core/features/watch/service.ts';
import type { TrawlConfig } from '../../../core/config-schema.ts';
import { httpUrl } from '../../../core/model/request.ts';
import { receiverRefusal, receiverUrlSchema } from '../../../core/net/receiver.ts';
import { validateSelectors } from '../../../core/selectors.ts';
import { readJsonBody } from '../../body.ts';
import { pagedQuery, pageFrom, pageOf } from '../../pagination.ts';
import { defineRoutes, route, type Route } from '../../route.ts';
import { presentComparison, watchOpenApi } from './watch-openapi.ts';

export function watchSchemas(settings: WatchSettings) {
  const { minIntervalMinutes: min, maxIntervalMinutes: max, maxIgnoreEntries: entries } = settings;
  const interval = z.number().int(`must be a whole number of minutes from ${min} to ${max}`)
    .min(min, `must be from ${min} to ${max} minutes`).max(max, `must be from ${min} to ${max} minutes`);
  const fields = {
    name: z.string().trim().min(1, 'must not be empty').max(200).describe('Label; defaults to the URL.'),
    interval_minutes: interval.describe(`Minutes between checks, ${min} to ${max}; default ${settings.defaultIntervalMinutes}.`),
    webhook_url: receiverUrlSchema.describe('Receives `watch.changed` (POST) when a check finds a change; refused at once when the SSRF guard forbids its address.'),
    ignore_selectors: z.array(z.string().trim().min(1, 'selectors must not be empty')).max(entries, `at most ${entries} selectors`)
      .describe('CSS selectors removed before the content is read (a rotating banner inside the article).'),
    ignore_text: z.array(z.string().min(1, 'must not be empty').max(500)).max(entries, `at most ${entries} patterns`)
      .describe('Lines containing one of these (case-insensitive; `*` matches anything) do not count as change.'),
  };
  const create = z.strictObject({
    url: httpUrl.describe('The page to watch.'),
    name: fields.name.optional(),
    interval_minutes: fields.interval_minutes.optional(),
    webhook_url: fields.webhook_url.optional(),
    ignore_selectors: fields.ignore_selectors.optional(),
    ignore_text: fields.ignore_text.optional(),
  });
  const update = z.strictObject({
    name: fields.name.optional(),
    interval_minutes: fields.interval_minutes.optional(),
    webhook_url: fields.webhook_url.nullable().optional().describe('null stops notifications.'),
    active: z.boolean().optional().describe('false stops scheduled checks; true resumes them (a slot missed meanwhile runs once).'),
    ignore_selectors: fields.ignore_selectors.optional(),
    ignore_text: fields.ignore_text.optional(),
  }).refine((p) => Object.values(p).some((v) => v !== undefined), 'Request body must set at least one of name, interval_minutes, webhook_url, active, ignore_selectors, ignore_text');
  return { create, update };
}

const filter = z.string().trim().min(1, 'must not be empty').max(200).optional();
/** `tag` and `search` narrow the list (declared here so the list's query is one place). */
export const listQuery = pagedQuery({ tag: filter, search: filter });
const snapshotId = z.string().min(1).max(64).optional();
export const diffQuery = z.object({ from: snapshotId, to: snapshotId });

export const presentWatch = (w: Watch) => ({
  id: w.id,
  url: w.url,
  name: w.name,
  interval_minutes: w.intervalMinutes,
  webhook_url: w.webhookUrl,
  active: w.active,
  last_checked_at: w.lastCheckedAt,
  last_changed_at: w.lastChangedAt,
  last_error: w.lastError,
  ignore_selectors: w.ignoreSelectors,
  ignore_text: w.ignoreText,
  created_at: w.createdAt,
});

export const presentSnapshot = (s: Snapshot) => ({
  id: s.id,
  content_hash: s.contentHash,
  word_count: s.wordCount,
  status: s.status,
  title: s.title,
  diff_summary: s.diffSummary,
  word_count_delta: s.wordCountDelta,
  links_added: s.linksAdded,
  links_removed: s.linksRemoved,
  checked_at: s.checkedAt,
});

function watchRoutes(watches: WatchService, settings: WatchSettings, maxBody: number, fetch: Readonly<TrawlConfig['fetch']>): Route[] {
  const schemas = watchSchemas(settings);
  const checkReceiver = async (url: string | null | undefined) => {
    const refusal = url ? await receiverRefusal(url, fetch) : null;
    if (refusal) throw badRequest(`Invalid field webhook_url: ${refusal}`);
  };

  return [
    {
      method: 'POST', path: '/v1/watch', body: 'manual',
      async handle({ request, workspace }) {
        const body = await readJsonBody(request, schemas.create, maxBody);
        validateSelectors('ignore_selectors', body.ignore_selectors);
        await checkReceiver(body.webhook_url);
        const watch = await watches.create(workspace, {
          url: body.url,
          name: body.name ?? body.url,
          intervalMinutes: body.interval_minutes ?? settings.defaultIntervalMinutes,
          webhookUrl: body.webhook_url ?? null,
          ignoreSelectors: body.ignore_selectors ?? [],
          ignoreText: body.ignore_text ?? [],
        });
        return Response.json(presentWatch(watch), { status: 201 });
      },
    },
    route({
      method: 'GET', path: '/v1/watch', query: listQuery,
      async handle({ request, workspace, query }) {
        const page = pageFrom(query);
        const { items, total } = await watches.list(workspace, page);
        return pageOf('watches', items.map(presentWatch), total, page, request);
      },
    }),
    {
      method: 'GET', path: '/v1/watch/:id',
      async handle({ params, workspace }) {
        const { watch, snapshots } = await watches.detail(workspace, params.id!);
        return { ...presentWatch(watch), snapshots: snapshots.map(presentSnapshot) };
      },
    },
    {
      method: 'PATCH', path: '/v1/watch/:id', body: 'manual',
      async handle({ params, request, workspace }) {
        const patch = await readJsonBody(request, schemas.update, maxBody);
        validateSelectors('ignore_selectors', patch.ignore_selectors);
        await checkReceiver(patch.webhook_url);
        const watch = await watches.update(workspace, params.id!, {
          name: patch.name,
          intervalMinutes: patch.interval_minutes,
          webhookUrl: patch.webhook_url,
          active: patch.active,
          ignoreSelectors: patch.ignore_selectors,
          ignoreText: patch.ignore_text,
        });
        return presentWatch(watch);
      },
    },
    {
      method: 'DELETE', path: '/v1/watch/:id',
      async handle({ params, workspace }) {
        await watches.delete(workspace, params.id!);
        return { success: true };
      },
    },
    {
      method: 'POST', path: '/v1/watch/:id/check',
      async handle({ params, workspace }) {
        await watches.check(workspace, params.id!);
        return Response.json({ status: 'checking' }, { status: 202 });
      },
    },
    route({
      method: 'GET', path: '/v1/watch/:id/diff', query: diffQuery,
      async handle({ params, query, workspace }) {
        const { watch, snapshots } = await watches.detail(workspace, params.id!);
        const to = query.to ?? snapshots[0]?.id;
        const from = query.from ?? snapshots[snapshots.findIndex((s) => s.id === to) + 1]?.id;
        if (!to || !from) throw badRequest('The watch needs two snapshots to compare; give from and to snapshot ids');
        const diff = await watches.diff(workspace, watch.id, from, to);
        return { watch_id: watch.id, from: presentSnapshot(diff.from), to: presentSnapshot(diff.to), ...presentComparison(diff.comparison, true) };
      },
    }),
  ] satisfies Route[];
}

export const watchModule = defineRoutes({
  name: 'watch',
  needs: { watches: WatchTokens.Service, settings: watchFeature.settingsToken },
  routes: ({ watches, settings }, env) => watchRoutes(watches, settings, env.config.server.maxBodyBytes, env.config.fetch),
  openapi: ({ settings }) => watchOpenApi(watchSchemas(settings)),
});
