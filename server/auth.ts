/**
 * Bearer-key authentication through the workspace store: `Authorization: Bearer <key>` is looked
 * up by its sha256 hash (core/storage/workspaces.ts) and answers the key's workspace.
 *
 * Self-hosted: the configured key (`--api-key` / TRAWL_API_KEY) is the default workspace's key,
 * registered at boot. Without a configured key the server is open: a request without a known key
 * is the default workspace's (a warning is logged at boot), and a key of another workspace still
 * selects that workspace. The configured key is remembered for a few seconds (the hot path);
 * keys made by the admin API are looked up on every request, so revoking one holds at once.
 *
 * Cloud: every request needs a key that is not revoked. The lookup reads the account (plan,
 * status, balance, rate limit) with it and is remembered for a few seconds, because every request
 * that gets past it is checked again where it counts: its rate-limit count and charge (the route
 * runner, core/metering.ts) verify the key and the plan in the same database write. So a revoked
 * key or a lapsed plan does nothing from the moment it is changed, in every process; the remembered
 * account only decides which limit applies (a changed limit holds within seconds).
 *
 * The admin API has its own key (TRAWL_ADMIN_KEY), compared in constant time.
 */
import { timingSafeEqual } from 'node:crypto';
import { TrawlError } from '../core/errors.ts';
import { sha256Hex } from '../core/storage/values.ts';
import { DEFAULT_WORKSPACE, hashApiKey, type WorkspaceStore } from '../core/storage/workspaces.ts';
import type { Caller } from './route.ts';

/** The caller public routes (/health, /openapi.json, /docs) run as; they read no stored rows. */
export const PUBLIC_CALLER: Caller = Object.freeze({ scope: 'public', workspace: DEFAULT_WORKSPACE, account: null, role: null });
/** The caller of the admin API: it acts on any workspace named in its paths. */
export const ADMIN_CALLER: Caller = Object.freeze({ scope: 'admin', workspace: DEFAULT_WORKSPACE, account: null, role: 'admin' });

/** Known keys are remembered briefly (self-hosted), so a hot path (cached scrapes) costs no query per request. */
const CACHE_TTL_MS = 10_000;
const CACHE_MAX = 1000;

export interface Authenticator {
  readonly required: boolean;
  /** Returns the caller or throws 401; without a database lookup when no key was sent or the key is remembered. */
  authenticate(authorization: string | null | undefined): Caller | Promise<Caller>;
  /** Cloud: reads a remembered caller's key again (it may have been revoked since); null when it no longer works. */
  refresh(caller: Caller): Promise<Caller | null>;
  /** Cloud: forgets a key (the database refused it). */
  forget(keyHash: string): void;
  /**
   * Like `authenticate`, but always read from the database, never from memory: a WebSocket upgrade
   * and the periodic check of an open socket's key (server/sockets.ts), so a revoked key neither
   * opens one nor keeps one open.
   */
  verify(authorization: string | null | undefined): Promise<Caller>;
}

/** Cloud: how long a looked-up key is remembered before it is read again. */
const CLOUD_CACHE_TTL_MS = 5_000;

export const bearer = (authorization: string | null | undefined) => /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
export const invalidKey = () => new TrawlError('unauthorized', 'Invalid or missing API key');
/** A member key on what only admin keys may do (`what`: that, for the message). */
export const memberRefused = (what: string) =>
  new TrawlError('forbidden', `This key's role is member: ${what} needs an admin key of the workspace`);

export function createAuthenticator(
  workspaces: WorkspaceStore,
  apiKey: string | undefined,
  mode: 'self-hosted' | 'cloud' = 'self-hosted',
): Authenticator {
  if (mode === 'cloud') return cloudAuthenticator(workspaces);
  const required = Boolean(apiKey);
  const known = new Map<string, { caller: Caller; until: number }>();
  // Whoever reaches a server without a key may do anything there.
  const open: Caller = Object.freeze({ scope: 'workspace', workspace: DEFAULT_WORKSPACE, account: null, role: 'admin' });

  const remembered = (key: string): Caller | null => {
    const hit = known.get(key);
    return hit && hit.until > Date.now() ? hit.caller : null;
  };
  const lookup = async (key: string): Promise<Caller | null> => {
    const found = await workspaces.findWorkspaceByKey(key);
    if (!found) return null;
    const caller: Caller = Object.freeze({
      scope: 'workspace',
      workspace: found.id,
      account: null,
      role: found.keyRole,
      keyId: found.keyId,
    });
    // Only the configured key is remembered: a key made by the admin API may be revoked at any moment.
    if (key === apiKey) {
      if (known.size >= CACHE_MAX) known.clear();
      known.set(key, { caller, until: Date.now() + CACHE_TTL_MS });
    }
    return caller;
  };
  const decide = (caller: Caller | null): Caller => {
    if (caller) return caller;
    if (!required) return open;
    throw invalidKey();
  };

  return {
    required,
    authenticate(authorization) {
      const key = bearer(authorization);
      if (!key) return decide(null);
      const hit = remembered(key);
      return hit ? hit : lookup(key).then(decide);
    },
    refresh: async (caller) => caller,
    forget() {},
    async verify(authorization) {
      const key = bearer(authorization);
      return decide(key ? await lookup(key) : null);
    },
  };
}

function cloudAuthenticator(workspaces: WorkspaceStore): Authenticator {
  const known = new Map<string, { caller: Caller; until: number }>();
  const lookup = async (keyHash: string): Promise<Caller | null> => {
    const account = await workspaces.findAccountByHash(keyHash);
    if (!account) {
      known.delete(keyHash);
      return null;
    }
    // A key's role never changes (only its name does), so a remembered caller's role is its role now.
    const caller: Caller = Object.freeze({
      scope: 'workspace',
      workspace: account.id,
      account,
      role: account.keyRole,
      keyId: account.keyId,
      keyHash,
      fresh: true,
    });
    if (known.size >= CACHE_MAX * 10) known.clear();
    known.set(keyHash, { caller: { ...caller, fresh: false }, until: Date.now() + CLOUD_CACHE_TTL_MS });
    return caller;
  };
  return {
    required: true,
    async authenticate(authorization) {
      const key = bearer(authorization);
      if (!key) throw invalidKey();
      const keyHash = hashApiKey(key);
      const hit = known.get(keyHash);
      if (hit && hit.until > Date.now()) return hit.caller;
      return (await lookup(keyHash)) ?? Promise.reject(invalidKey());
    },
    refresh: (caller) => (caller.fresh || !caller.keyHash ? Promise.resolve(caller) : lookup(caller.keyHash)),
    forget(keyHash) {
      known.delete(keyHash);
    },
    async verify(authorization) {
      const key = bearer(authorization);
      return (key ? await lookup(hashApiKey(key)) : null) ?? Promise.reject(invalidKey());
    },
  };
}

/** Whether a bearer header carries `secret`, compared in constant time; never, without a secret. */
export function secretMatcher(secret: string | undefined): (authorization: string | null | undefined) => boolean {
  const digest = (value: string) => Buffer.from(sha256Hex(value), 'hex');
  const expected = secret ? digest(secret) : null;
  return (authorization) => {
    const key = bearer(authorization);
    // Digests have one length, so the comparison takes the same time whatever was sent.
    return expected !== null && key !== undefined && timingSafeEqual(digest(key), expected);
  };
}

/** Checks the admin key; without one configured nothing passes (the admin routes are not mounted then). */
export function createAdminGuard(adminKey: string | undefined): (authorization: string | null | undefined) => void {
  const matches = secretMatcher(adminKey);
  return (authorization) => {
    if (!matches(authorization)) throw new TrawlError('unauthorized', 'Invalid or missing admin key');
  };
}
