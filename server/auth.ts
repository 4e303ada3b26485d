/**
 * Bearer-key authentication. With a key configured (`--api-key` / `TRAWL_API_KEY`), every
 * protected request must send `Authorization: Bearer <key>`; keys are compared as SHA-256 digests
 * in constant time. Without a key every request is allowed (a warning is logged at boot).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { TrawlError } from '../core/errors.ts';

export const DEFAULT_WORKSPACE = 'default';

const digest = (value: string) => createHash('sha256').update(value).digest();

export interface Authenticator {
  readonly required: boolean;
  /** Returns the workspace of the request or throws 401. */
  authenticate(authorization: string | null | undefined): string;
}

export function createAuthenticator(apiKey: string | undefined): Authenticator {
  const expected = apiKey ? digest(apiKey) : null;
  return {
    required: expected !== null,
    authenticate(authorization) {
      if (!expected) return DEFAULT_WORKSPACE;
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
      if (!match || !timingSafeEqual(digest(match[1]!), expected)) {
        throw new TrawlError('unauthorized', 'Invalid or missing API key');
      }
      return DEFAULT_WORKSPACE;
    },
  };
}
