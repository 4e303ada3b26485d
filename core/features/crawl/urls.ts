/**
 * A crawl's URL identity: the URL module's (core/net/url.ts: what is fetched, the dedupe key,
 * host and path) plus the frontier row id, sha256 of the key (URLs have no length limit of
 * their own; index entries do).
 */
import { normalizeUrl, type NormalUrl } from '../../net/url.ts';
import { sha256Hex } from '../../storage/values.ts';

export interface CrawlUrl extends NormalUrl {
  hash: string;
}

/** Parses an absolute (or base-relative) http(s) URL into its crawl identity; null when unusable. */
export function crawlUrl(input: string, base?: string): CrawlUrl | null {
  const url = normalizeUrl(input, base);
  return url && { ...url, hash: sha256Hex(url.key) };
}
