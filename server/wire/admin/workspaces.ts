/**
 * The admin API's wire, which the CLI's `admin` commands share: the bodies that create and change
 * workspaces, keys and credit grants, and the presenters of a workspace and a key.
 */
import { z } from 'zod';
import type { KeyInfo } from '../../../core/features/accounts/key-admin.ts';
import { KEY_ROLES, PLANS, rateLimitOf, WORKSPACE_STATUSES, type Account } from '../../../core/storage/workspaces.ts';
import type { TrawlConfig } from '../../../core/config-schema.ts';

const name = z.string().trim().min(1).max(200);
const rateLimit = z.number().int().min(1).max(1_000_000);
const credits = z.number().int().min(0).max(1_000_000_000_000);

export const createWorkspaceSchema = z.strictObject({
  name,
  plan: z.enum(PLANS),
  credits: credits.default(0).describe('Initial balance.'),
  rate_limit: rateLimit.nullable().optional().describe("Requests per minute for this workspace; unset or null: the plan's."),
});

export const updateWorkspaceSchema = z
  .strictObject({
    name: name.optional(),
    plan: z.enum(PLANS).optional(),
    status: z.enum(WORKSPACE_STATUSES).optional().describe('`lapsed`: reads only, no billable work, no paid features.'),
    rate_limit: rateLimit.nullable().optional().describe("null: back to the plan's limit."),
  })
  .refine((p) => Object.values(p).some((v) => v !== undefined), 'Request body must set name, plan, status or rate_limit');

export const keyName = name;
export const keyRole = z
  .enum(KEY_ROLES)
  .describe("`admin`: manages the workspace's keys and sees its billing; " + '`member`: calls the API only.');
export const createKeySchema = z.strictObject({ name: name.optional().describe('A label for people.'), role: keyRole.default('admin') });

export const grantSchema = z.strictObject({
  credits: credits.min(1).describe('Credits added to the balance.'),
  note: z.string().max(500).optional(),
});

export function presentWorkspace(account: Account, plans: TrawlConfig['plans']) {
  return {
    id: account.id,
    name: account.name,
    plan: account.plan,
    status: account.status,
    credits: account.credits,
    rate_limit: account.rateLimit,
    rate_limit_per_minute: rateLimitOf(account, plans),
    created_at: account.createdAt,
    updated_at: account.updatedAt,
  };
}

export const presentKey = (key: KeyInfo) => ({
  id: key.id,
  workspace_id: key.workspaceId,
  name: key.name,
  suffix: key.suffix,
  role: key.role,
  created_at: key.createdAt,
  revoked_at: key.revokedAt,
});
