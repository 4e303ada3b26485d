/**
 * A workspace runs its own account with its keys (what the account page, server/account-page/,
 * calls): `GET /v1/account` (the workspace, its plan and balance, the calling key and its role) and
 * its API keys — `GET /v1/keys`, `POST /v1/keys` (the secret is in that answer only),
 * `PATCH /v1/keys/{id}` (rename) and `DELETE /v1/keys/{id}` (revoke, at once).
 *
 * Roles: `admin` keys manage the workspace's keys and see its billing (the balance here, and
 * /v1/usage); `member` keys call the API only and get 403 on key management (routes declared
 * `admin`, refused by the route runner before a body is read). A workspace keeps at
 * least one working admin key (409). The operator (admin API, CLI) is above both. Served in both
 * modes: a self-hosted server's default workspace has no plan or balance (null), and on a server
 * without a key every caller is an admin.
 */
import type { z } from 'zod';
import { AccountsToken, MAX_WORKSPACE_KEYS } from '../../../core/features/accounts/accounts.ts';
import type { KeyInfo } from '../../../core/features/accounts/key-admin.ts';
import { TrawlError } from '../../../core/errors.ts';
import { rateLimitOf } from '../../../core/storage/workspaces.ts';
import { pagedQuery, pageFrom, pageOf } from '../../pagination.ts';
import { defineRoutes, route, type Caller } from '../../route.ts';
import { createKeySchema } from '../../wire/admin/workspaces.ts';
import { accountOpenApi } from '../../wire/v1/account.docs.ts';
import { renameKeySchema } from '../../wire/v1/account.ts';

const presentOwnKey = (key: KeyInfo, caller: Caller) => ({
  id: key.id,
  name: key.name,
  role: key.role,
  suffix: key.suffix,
  created_at: key.createdAt,
  revoked_at: key.revokedAt,
  current: key.id === caller.keyId,
});
const MANAGE = 'managing API keys';

export const accountModule = defineRoutes({
  name: 'account',
  needs: { accounts: AccountsToken },
  routes: ({ accounts }, env) => [
    {
      method: 'GET',
      path: '/v1/account',
      async handle({ caller, workspace }) {
        // Read now: a remembered caller's account may be seconds old, and this answer is about the balance.
        const found = await accounts.getWorkspace(workspace);
        if (!found) throw new TrawlError('not_found', 'Workspace not found');
        const account = env.config.mode === 'cloud' ? found : null;
        const admin = caller.role === 'admin';
        return {
          workspace: { id: workspace, name: found.name },
          mode: env.config.mode,
          plan: account?.plan ?? null,
          status: account?.status ?? null,
          balance: account && admin ? account.credits : null,
          rate_limit_per_minute: account ? rateLimitOf(account, env.config.plans) : null,
          key: caller.keyId ? { id: caller.keyId, role: caller.role } : null,
          role: caller.role,
        };
      },
    },
    {
      method: 'GET',
      path: '/v1/keys',
      admin: MANAGE,
      query: pagedQuery(),
      async handle({ request, caller, workspace, query }) {
        const page = pageFrom(query);
        const { items, total } = await accounts.ownKeys(workspace, page);
        return pageOf(
          'keys',
          items.map((key) => presentOwnKey(key, caller)),
          total,
          page,
          request,
        );
      },
    },
    route<z.output<typeof createKeySchema>>({
      method: 'POST',
      path: '/v1/keys',
      admin: MANAGE,
      input: createKeySchema,
      emptyBody: true,
      async handle({ caller, workspace, body }) {
        const { total } = await accounts.ownKeys(workspace, { offset: 0, limit: 1 });
        if (total >= MAX_WORKSPACE_KEYS)
          throw new TrawlError('conflict', `A workspace holds at most ${MAX_WORKSPACE_KEYS} working keys: revoke one first`);
        const { key, info } = await accounts.createKey(workspace, { name: body.name, role: body.role, byKey: caller.keyId ?? null });
        return Response.json({ ...presentOwnKey(info, caller), key }, { status: 201 });
      },
    }),
    route<z.output<typeof renameKeySchema>>({
      method: 'PATCH',
      path: '/v1/keys/:id',
      admin: MANAGE,
      input: renameKeySchema,
      async handle({ caller, workspace, params, body }) {
        return presentOwnKey(await accounts.renameKey(workspace, params.id!, body.name, caller.keyId ?? null), caller);
      },
    }),
    {
      method: 'DELETE',
      path: '/v1/keys/:id',
      admin: MANAGE,
      async handle({ caller, workspace, params }) {
        // `success` as every /v1 delete answers; the revoked key with its revoked_at beside it.
        return { success: true, ...presentOwnKey(await accounts.revokeOwnKey(workspace, params.id!, caller.keyId ?? null), caller) };
      },
    },
  ],
  openapi: () => accountOpenApi,
});
