/**
 * The webhook registry over HTTP: `POST/GET /v1/webhooks`, `GET/PATCH/DELETE /v1/webhooks/{id}`
 * and the delivery log `GET /v1/webhooks/{id}/deliveries`, all scoped to the caller's workspace
 * (another workspace's id answers 404 like an unknown one). The signing secret is in the 201 answer
 * to POST and nowhere else.
 */
import { badRequest, TrawlError } from '../../../core/errors.ts';
import { WebhookTokens, webhooksFeature } from '../../../core/features/webhooks/index.ts';
import type { WebhookStore } from '../../../core/features/webhooks/store.ts';
import type { TrawlConfig } from '../../../core/config-schema.ts';
import { receiverRefusal } from '../../../core/net/receiver.ts';
import { pagedQuery, pageFrom, pageOf } from '../../pagination.ts';
import { defineRoutes, route, type Route } from '../../route.ts';
import { webhooksOpenApi } from '../../wire/v1/webhooks.docs.ts';
import { createWebhookSchema, present, presentDelivery, updateWebhookSchema } from '../../wire/v1/webhooks.ts';

const notFound = () => new TrawlError('not_found', 'Webhook not found');

function webhookRoutes(store: WebhookStore, maxPerWorkspace: number, fetch: Readonly<TrawlConfig['fetch']>) {
  /** The SSRF guard at registration: a forbidden receiver is a 400 now, not failed deliveries later. */
  const allowed = async (url: string | undefined) => {
    const refusal = url === undefined ? null : await receiverRefusal(url, fetch);
    if (refusal) throw badRequest(`Invalid field url: ${refusal}`);
  };
  const found = async (workspace: string, id: string) => {
    const webhook = await store.get(workspace, id);
    if (!webhook) throw notFound();
    return webhook;
  };

  return [
    route({
      method: 'POST',
      path: '/v1/webhooks',
      input: createWebhookSchema,
      async handle({ body, workspace }) {
        await allowed(body.url);
        if ((await store.count(workspace)) >= maxPerWorkspace) {
          throw new TrawlError('conflict', `Webhook limit reached: at most ${maxPerWorkspace} per workspace`);
        }
        const { webhook, secret } = await store.create(workspace, body);
        return Response.json({ ...present(webhook), secret }, { status: 201 });
      },
    }),
    route({
      method: 'GET',
      path: '/v1/webhooks',
      query: pagedQuery(),
      async handle({ request, workspace, query }) {
        const page = pageFrom(query);
        const { items, total } = await store.list(workspace, page);
        return pageOf('webhooks', items.map(present), total, page, request);
      },
    }),
    {
      method: 'GET',
      path: '/v1/webhooks/:id',
      handle: async ({ params, workspace }) => present(await found(workspace, params.id!)),
    },
    route({
      method: 'PATCH',
      path: '/v1/webhooks/:id',
      input: updateWebhookSchema,
      async handle({ params, body: patch, workspace }) {
        await allowed(patch.url);
        const updated = await store.update(workspace, params.id!, patch);
        if (!updated) throw notFound();
        return present(updated);
      },
    }),
    {
      method: 'DELETE',
      path: '/v1/webhooks/:id',
      async handle({ params, workspace }) {
        if (!(await store.delete(workspace, params.id!))) throw notFound();
        // Every /v1 delete answers `{success: true}` (the interface's answer for monitor deletes).
        return { success: true };
      },
    },
    route({
      method: 'GET',
      path: '/v1/webhooks/:id/deliveries',
      query: pagedQuery(),
      async handle({ params, request, workspace, query }) {
        const page = pageFrom(query);
        await found(workspace, params.id!);
        const { items, total } = await store.deliveries(workspace, params.id!, page);
        return pageOf('deliveries', items.map(presentDelivery), total, page, request);
      },
    }),
  ] satisfies Route[];
}

export const webhooksModule = defineRoutes({
  name: 'webhooks',
  needs: { store: WebhookTokens.Store, settings: webhooksFeature.settingsToken },
  routes: ({ store, settings }, env) => webhookRoutes(store, settings.maxPerWorkspace, env.config.fetch),
  openapi: () => webhooksOpenApi,
});
