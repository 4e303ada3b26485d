/**
 * API keys of cloud workspaces: `trawl_` followed by 32 random bytes in URL-safe base64 (43
 * characters, 256 bits of entropy). The key is shown once; the database keeps its sha256 (what
 * authentication looks up, core/storage/workspaces.ts) and its last four characters, so people can
 * tell their keys apart in a list.
 */
import { randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'trawl_';
const SECRET_BYTES = 32;
const SUFFIX_LENGTH = 4;
export const KEY_PATTERN = /^trawl_[A-Za-z0-9_-]{43}$/;

export function generateApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(SECRET_BYTES).toString('base64url')}`;
}

export function keySuffix(key: string): string {
  return key.slice(-SUFFIX_LENGTH);
}
