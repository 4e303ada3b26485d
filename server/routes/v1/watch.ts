/**
 * Watches over HTTP: `POST/GET /v1/watch`, `GET/PATCH/DELETE /v1/watch/{id}`, `POST
 * /v1/watch/{id}/check` and `GET /v1/watch/{id}/diff` (two snapshots compared; the dashboard's
 * diff view), all scoped to the caller's workspace (another workspace's id answers 404). Checks
 * are billed by the check job itself (one `watchCheck` each, scheduled or manual); creating a
 * watch and asking for a check start billable work, refused to a lapsed workspace (cloud mode).
 */
import { badRequest } from '../../../core/errors.ts';
import { WatchTokens, watchFeature } from '../../../core/features/watch/index.ts';
import { watchLimits, type WatchSettings } from '../../../core/features/watch/config.ts';
import { DEFAULT_FILTERS } from '../../../core/features/watch/filters.ts';
import type { WatchService } from '../../../core/features/watch/service.ts';
import type { Announcer } from '../../../core/features/watch/notify.ts';
import type { Watch } from '../../../core/features/watch/records.ts';
import { notifyFeature } from '../../../core/features/notify/index.ts';
import type { NotifySettings } from '../../../core/features/notify/config.ts';
import { targetsProblem } from '../../../core/features/notify/targets.ts';
import type { TrawlConfig } from '../../../core/config-schema.ts';
import { receiverRefusal } from '../../../core/net/receiver.ts';
import { pageFrom, pageOf } from '../../pagination.ts';
import { defineRoutes, route, type Route } from '../../route.ts';
import { presentComparison } from '../../wire/v1/diff.ts';
import { checkWatchBody, diffQuery, filtersOf, listQuery, presentSnapshot, presentWatch, watchSchemas } from '../../wire/v1/watch.ts';
import { watchOpenApi } from '../../wire/v1/watch.docs.ts';

type Config = Pick<TrawlConfig, 'fetch' | 'mode' | 'plans'>;

/** The lowest interval any caller may get: the section's, or in cloud mode the lowest plan's. */
const intervalFloor = (settings: WatchSettings, config: Pick<TrawlConfig, 'mode' | 'plans'>) =>
  config.mode === 'cloud' ? Math.min(...Object.values(config.plans).map((p) => p.minWatchIntervalMinutes)) : settings.minIntervalMinutes;

interface Deps {
  watches: WatchService;
  settings: WatchSettings;
  notify: NotifySettings;
  announcer: Announcer;
}

function watchRoutes({ watches, settings, notify, announcer }: Deps, config: Readonly<Config>): Route[] {
  const schemas = watchSchemas(settings, intervalFloor(settings, config), notify.maxTargets);
  const checkReceivers = async (body: { webhook_url?: string | null; notify?: string[] }) => {
    const refusal = body.webhook_url ? await receiverRefusal(body.webhook_url, config.fetch) : null;
    if (refusal) throw badRequest(`Invalid field webhook_url: ${refusal}`);
    const problem = body.notify ? await targetsProblem(body.notify, { fetch: config.fetch, smtp: notify.smtp }) : null;
    if (problem) throw badRequest(`Invalid field ${problem}`);
  };
  /** The watches as answered: with their next check and their targets' last delivery outcomes. */
  const presentAll = async (items: Watch[]) => {
    const [next, statuses] = await Promise.all([watches.nextChecks(items), announcer.statuses(items)]);
    return items.map((w) => presentWatch(w, next.get(w.id) ?? null, statuses.get(w.id)));
  };
  const present = async (watch: Watch) => (await presentAll([watch]))[0]!;

  return [
    route({
      method: 'POST',
      path: '/v1/watch',
      input: schemas.create,
      billable: true,
      async handle({ body, workspace, caller }) {
        const limits = watchLimits(settings, config, caller.account);
        checkWatchBody(body, limits);
        await checkReceivers(body);
        const watch = await watches.create(
          workspace,
          {
            url: body.url,
            name: body.name ?? body.url,
            intervalMinutes: body.interval_minutes ?? limits.defaultIntervalMinutes,
            webhookUrl: body.webhook_url ?? null,
            tags: [],
            ...DEFAULT_FILTERS,
            ...filtersOf(body),
          },
          limits,
        );
        return Response.json(await present(watch), { status: 201 });
      },
    }),
    route({
      method: 'GET',
      path: '/v1/watch',
      query: listQuery,
      async handle({ request, workspace, query }) {
        const page = pageFrom(query);
        const { items, total } = await watches.list(workspace, page, { tag: query.tag, search: query.search });
        return pageOf('watches', await presentAll(items), total, page, request);
      },
    }),
    {
      method: 'GET',
      path: '/v1/watch/:id',
      async handle({ params, workspace }) {
        const { watch, snapshots } = await watches.detail(workspace, params.id!);
        return { ...(await present(watch)), snapshots: snapshots.map(presentSnapshot) };
      },
    },
    route({
      method: 'PATCH',
      path: '/v1/watch/:id',
      input: schemas.update,
      async handle({ params, body: patch, workspace, caller }) {
        checkWatchBody(patch, watchLimits(settings, config, caller.account));
        await checkReceivers(patch);
        const watch = await watches.update(workspace, params.id!, {
          name: patch.name,
          intervalMinutes: patch.interval_minutes,
          webhookUrl: patch.webhook_url,
          active: patch.active,
          ...filtersOf(patch),
        });
        if (patch.notify !== undefined || patch.webhook_url !== undefined) await announcer.prune(watch);
        return present(watch);
      },
    }),
    {
      method: 'DELETE',
      path: '/v1/watch/:id',
      async handle({ params, workspace }) {
        await watches.delete(workspace, params.id!);
        return { success: true };
      },
    },
    {
      method: 'POST',
      path: '/v1/watch/:id/check',
      billable: true,
      async handle({ params, workspace }) {
        await watches.check(workspace, params.id!);
        return Response.json({ status: 'checking' }, { status: 202 });
      },
    },
    route({
      method: 'GET',
      path: '/v1/watch/:id/diff',
      query: diffQuery,
      async handle({ params, query, workspace }) {
        const { watch, snapshots } = await watches.detail(workspace, params.id!);
        const to = query.to ?? snapshots[0]?.id;
        const from = query.from ?? snapshots[snapshots.findIndex((s) => s.id === to) + 1]?.id;
        if (!to || !from) throw badRequest('The watch needs two snapshots to compare; give from and to snapshot ids');
        const diff = await watches.diff(workspace, watch.id, from, to);
        return {
          watch_id: watch.id,
          from: presentSnapshot(diff.from),
          to: presentSnapshot(diff.to),
          ...presentComparison(diff.comparison, true),
        };
      },
    }),
  ] satisfies Route[];
}

export const watchModule = defineRoutes({
  name: 'watch',
  needs: {
    watches: WatchTokens.Service,
    settings: watchFeature.settingsToken,
    notify: notifyFeature.settingsToken,
    announcer: WatchTokens.Announcer,
  },
  routes: (deps, env) => watchRoutes(deps, env.config),
  openapi: ({ settings, notify }, env) => watchOpenApi(watchSchemas(settings, intervalFloor(settings, env.config), notify.maxTargets)),
});
