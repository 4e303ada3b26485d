/**
 * Fetching what endpoint discovery scans: bundles and source maps through the core HttpClient
 * (SSRF guard on every redirect, timeouts, a body cap), their names as the answer gives them, and
 * the source map a bundle names (`//# sourceMappingURL=` in its last lines, `data:` maps decoded).
 */
import type { HttpClient } from '../../services.ts';
import { responseText } from '../../response-text.ts';
import { absoluteUrl, isHttpUrl } from '../../net/url.ts';

export type Fetched = { text: string; truncated: boolean } | { error: string };

/** Where a bundle's map comment can be: the spec puts it last; a few trailing lines are allowed for. */
const TAIL_CHARS = 4096;
const MAP_COMMENT = /\/[/*][#@]\s*sourceMappingURL=([^\s'"*]+)\s*(?:\*\/)?\s*$/;

/** The bundle's file name (last path segment), as `source` names it. */
export function bundleName(url: string): string {
  const { pathname, host } = new URL(url);
  const last = pathname.split('/').filter(Boolean).pop();
  try {
    return last ? decodeURIComponent(last) : host;
  } catch {
    return last ?? host;
  }
}

/** The map a bundle names: a URL to fetch, or the text of a `data:` map. */
export function sourceMapUrl(text: string, bundleUrl: string): { url?: string; inline?: string } | null {
  const tail = text.slice(-TAIL_CHARS).trimEnd();
  const named = MAP_COMMENT.exec(tail)?.[1];
  if (!named) return null;
  const data = /^data:application\/json(?:;charset=[\w-]+)?;base64,([A-Za-z0-9+/=]+)$/i.exec(named);
  if (data) return { inline: Buffer.from(data[1]!, 'base64').toString('utf8') };
  const url = absoluteUrl(named, bundleUrl);
  return url && isHttpUrl(url) ? { url } : null;
}

export async function fetchScript(
  http: HttpClient,
  url: string,
  maxBytes: number,
  truncate: boolean,
  signal: AbortSignal,
): Promise<Fetched> {
  try {
    const response = await http.request(url, { maxBodyBytes: maxBytes, truncateBody: truncate, signal, headers: { accept: '*/*' } });
    if (response.status >= 400) return { error: `HTTP ${response.status}` };
    return { text: responseText(response), truncated: response.truncated === true };
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    return { error: err instanceof Error ? err.message.replace(/^Failed to fetch URL: /, '') : String(err) };
  }
}
