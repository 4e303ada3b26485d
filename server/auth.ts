/**
 * Bearer-key authentication through the workspace store: `Authorization: Bearer <key>` is looked
 * up by its sha256 hash (core/storage/workspaces.ts) and answers the key's workspace. The configured
 * key (`--api-key` / TRAWL_API_KEY) is the default workspace's key, registered at boot. Without a
 * configured key the server is open: a request without a known key is the default workspace's
 * (a warning is logged at boot), and a key of another workspace still selects that workspace.
 */
import { TrawlError } from '../core/errors.ts';
import { DEFAULT_WORKSPACE, type WorkspaceStore } from '../core/storage/workspaces.ts';

/** The workspace public routes (/health, /openapi.json, /docs) run under; they read no stored rows. */
export const PUBLIC_WORKSPACE = DEFAULT_WORKSPACE;

/** Known keys are remembered briefly, so a hot path (cached scrapes) costs no query per request. */
const CACHE_TTL_MS = 10_000;
const CACHE_MAX = 1000;

export interface Authenticator {
  readonly required: boolean;
  /** Returns the workspace of the request or throws 401; without a database lookup when no key was sent or the key is remembered. */
  authenticate(authorization: string | null | undefined): string | Promise<string>;
}

export function createAuthenticator(workspaces: WorkspaceStore, apiKey: string | undefined): Authenticator {
  const required = Boolean(apiKey);
  const known = new Map<string, { workspace: string; until: number }>();

  const remembered = (key: string): string | null => {
    const hit = known.get(key);
    return hit && hit.until > Date.now() ? hit.workspace : null;
  };
  const lookup = async (key: string): Promise<string | null> => {
    const workspace = (await workspaces.findWorkspaceByKey(key))?.id ?? null;
    if (workspace) {
      if (known.size >= CACHE_MAX) known.clear();
      known.set(key, { workspace, until: Date.now() + CACHE_TTL_MS });
    }
    return workspace;
  };
  const decide = (workspace: string | null): string => {
    if (workspace) return workspace;
    if (!required) return DEFAULT_WORKSPACE;
    throw new TrawlError('unauthorized', 'Invalid or missing API key');
  };

  return {
    required,
    authenticate(authorization) {
      const key = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
      if (!key) return decide(null);
      const hit = remembered(key);
      return hit ? hit : lookup(key).then(decide);
    },
  };
}
