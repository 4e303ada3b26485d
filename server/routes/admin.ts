/**
 * The admin API, the operator's side of cloud mode (the back end a dashboard would call; the CLI's
 * `admin` commands do the same against the database): workspaces (`/admin/workspaces`), their keys
 * and credit grants. Guarded by its own key (TRAWL_ADMIN_KEY, server/auth.ts) and served only when
 * one is configured. A key is in the answer to its creation and nowhere else.
 */
import type { z } from 'zod';
import { AccountsToken, type AccountsService } from '../../core/features/accounts/accounts.ts';
import type { Account } from '../../core/storage/workspaces.ts';
import type { TrawlConfig } from '../../core/config-schema.ts';
import { pagedQuery, pageFrom, pageOf } from '../pagination.ts';
import { defineRoutes, route, type Route } from '../route.ts';
import { adminOpenApi } from '../wire/admin/workspaces.docs.ts';
import {
  createKeySchema,
  createWorkspaceSchema,
  grantSchema,
  presentKey,
  presentWorkspace,
  updateWorkspaceSchema,
} from '../wire/admin/workspaces.ts';

function adminRoutes(accounts: AccountsService, plans: TrawlConfig['plans']): Route[] {
  const present = (account: Account) => presentWorkspace(account, plans);
  return [
    route<z.output<typeof createWorkspaceSchema>>({
      method: 'POST',
      path: '/admin/workspaces',
      input: createWorkspaceSchema,
      async handle({ body }) {
        const account = await accounts.createWorkspace({
          name: body.name,
          plan: body.plan,
          credits: body.credits,
          rateLimit: body.rate_limit ?? null,
        });
        return Response.json(present(account), { status: 201 });
      },
    }),
    route({
      method: 'GET',
      path: '/admin/workspaces',
      query: pagedQuery(),
      async handle({ request, query }) {
        const page = pageFrom(query);
        const { items, total } = await accounts.listWorkspaces(page);
        return pageOf('workspaces', items.map(present), total, page, request);
      },
    }),
    {
      method: 'GET',
      path: '/admin/workspaces/:id',
      async handle({ params }) {
        const account = await accounts.getWorkspace(params.id!);
        if (!account) return Response.json({ error: `Workspace not found: ${params.id!.slice(0, 64)}` }, { status: 404 });
        return { ...present(account), keys: (await accounts.listKeys(account.id)).map(presentKey) };
      },
    },
    route<z.output<typeof updateWorkspaceSchema>>({
      method: 'PATCH',
      path: '/admin/workspaces/:id',
      input: updateWorkspaceSchema,
      async handle({ params, body }) {
        return present(
          await accounts.updateWorkspace(params.id!, { name: body.name, plan: body.plan, status: body.status, rateLimit: body.rate_limit }),
        );
      },
    }),
    route<z.output<typeof createKeySchema>>({
      method: 'POST',
      path: '/admin/workspaces/:id/keys',
      input: createKeySchema,
      emptyBody: true,
      async handle({ params, body }) {
        const { key, info } = await accounts.createKey(params.id!, { name: body.name, role: body.role });
        return Response.json({ ...presentKey(info), key }, { status: 201 });
      },
    }),
    {
      method: 'GET',
      path: '/admin/workspaces/:id/keys',
      handle: async ({ params }) => ({ keys: (await accounts.listKeys(params.id!)).map(presentKey) }),
    },
    {
      method: 'DELETE',
      path: '/admin/keys/:id',
      handle: async ({ params }) => presentKey(await accounts.revokeKey(params.id!)),
    },
    route<z.output<typeof grantSchema>>({
      method: 'POST',
      path: '/admin/workspaces/:id/credits',
      input: grantSchema,
      handle: async ({ params, body }) => present(await accounts.grantCredits(params.id!, body.credits, body.note)),
    }),
  ];
}

export const adminModule = defineRoutes({
  name: 'admin',
  mounted: (env) => Boolean(env.config.adminKey),
  needs: { accounts: AccountsToken },
  routes: ({ accounts }, env) => adminRoutes(accounts, env.config.plans),
  openapi: () => adminOpenApi,
});
