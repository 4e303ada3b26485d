/**
 * From what the scanners found to the endpoints of the answer. A value is cut to its path (query
 * and fragment dropped: one endpoint, whatever its parameters), a leading run-time base
 * (`{base}/users`, `${protocol}//${host}/live`) leaves its path; static assets (images, fonts,
 * styles, media, scripts and maps) are not endpoints. Values in request calls are kept; plain
 * `url:` options and strings found anywhere only when they look like an API (an `api`, `graphql`,
 * `v2`, `rest` … segment, a `.json`/`.php`-like file, an `api.` host): precision before volume.
 * `first_party` compares registrable domains with the page's (tldts, private suffixes counted).
 */
import type { ScanHit } from '../../plugin.ts';
import { siteOf } from '../../net/scope.ts';

export type EndpointKind = 'relative_path' | 'absolute_url' | 'graph_ql' | 'web_socket';

export interface Endpoint {
  value: string;
  kind: EndpointKind;
  first_party: boolean;
  /** The bundle's file name, or `inline`. */
  source: string;
}

const STATIC_ASSET =
  /\.(?:png|jpe?g|gif|webp|avif|svg|ico|bmp|tiff?|woff2?|ttf|otf|eot|css|less|scss|mp4|webm|ogg|ogv|mp3|wav|flac|m4a|mov|avi|js|mjs|cjs|jsx|ts|tsx|map|wasm|pdf|zip|gz|txt|md|html?)$/i;
const API_SEGMENT =
  /^(?:api|apis|_api|graphql|gql|rest|rpc|jsonrpc|ajax|xhr|ws|wss|socket|websocket|socket\.io|sockjs|oauth2?|v\d{1,2}(?:\.\d{1,2})?|wp-json|webhooks?|sse|rest_api|restapi|odata)$/i;
const TRANSPORT_SEGMENT = /^(?:graphql|gql|ws|wss|socket|websocket|socket\.io|sockjs|sse)$/i;
const API_FILE = /\.(?:json|php|asmx|ashx|aspx?|cgi|jsp|do|action)$/i;
const API_HOST = /^(?:api|apis|graphql|gql|ws|wss|socket|realtime|gateway|rest|rpc)[\w-]*\./i;
const GRAPHQL = /(?:^|[/._-])(?:graphql|gql)(?:$|[/._-])/i;
const ABSOLUTE = /^(?:(https?|wss?):)?\/\/([^/?#]+)(.*)$/i;

interface Parts {
  value: string;
  scheme?: string;
  host?: string;
  path: string;
}

/** The endpoint a value names, or null when it names none. */
export function endpointValue(raw: string): Parts | null {
  let value = raw.trim();
  // A base only known at run time: what follows it is the endpoint's path.
  if (value.startsWith('{')) {
    // A base is a URL or a path; one that ends without its slash (`${base}users`) still ends a segment.
    value = value.replace(/^(?:\{[^}]*\}|:|\/\/)+/, '');
    if (value.startsWith('//') || !/^\/?[\w-]/.test(value)) return null;
    if (!value.startsWith('/')) value = `/${value}`;
  }
  // The query and fragment, and a run-time suffix glued to the last segment (`/flow${query}`).
  value = value.replace(/[?#].*$/, '').replace(/([^/{])\{[^}]*\}$/, '$1');
  // Nothing but slashes and run-time parts (`/${path}`) names no endpoint.
  if (!value || /^[./]*(?:\{[^}]*\}[./]*)*$/.test(value)) return null;
  const absolute = ABSOLUTE.exec(value);
  if (absolute) {
    const [, scheme, host, path] = absolute;
    // `wss://${location.host}/live`: the host is only known at run time; the path is what the code says.
    if (host && /^(?:\{[^}]*\})+(?::\d+)?$/.test(host))
      return path && /^\/[^{]/.test(path) ? { value: path, scheme: scheme?.toLowerCase(), path } : null;
    if (!host || !/^[\w{}.-]+(?::\d+)?$/.test(host) || !/[.]|^localhost(?::|$)/i.test(host)) return null;
    return { value, scheme: scheme?.toLowerCase(), host: host.toLowerCase().replace(/:\d+$/, ''), path: path ?? '' };
  }
  return { value, path: value };
}

export function isStaticAsset(path: string): boolean {
  return STATIC_ASSET.test(path.replace(/\/+$/, ''));
}

export function looksLikeApi(parts: Parts): boolean {
  if (parts.host && API_HOST.test(parts.host.replace(/^\{[^}]*\}\./, ''))) return true;
  if (parts.scheme === 'ws' || parts.scheme === 'wss') return true;
  const segments = parts.path.split('/').filter(Boolean);
  if (API_FILE.test(segments[segments.length - 1] ?? '')) return true;
  // A lone `/api` or `/v2` is a base or a page (`/api` of a menu); a lone `/graphql` or `/ws` is an endpoint.
  if (segments.length === 1 && !parts.host) return TRANSPORT_SEGMENT.test(segments[0]!);
  return segments.some((s) => API_SEGMENT.test(s));
}

export function kindOf(parts: Parts, api: ScanHit['api']): EndpointKind {
  if (api === 'websocket' || parts.scheme === 'ws' || parts.scheme === 'wss') return 'web_socket';
  if (api === 'graphql' || GRAPHQL.test(parts.path)) return 'graph_ql';
  return parts.host ? 'absolute_url' : 'relative_path';
}

/** Whether `host` (placeholders for leading labels allowed) is on the page's registrable domain. */
export function sameSite(host: string, pageHost: string): boolean {
  const bare = host.replace(/^(?:\{[^}]*\}\.)+/, '');
  if (bare.includes('{')) return false;
  return siteOf(bare) === siteOf(pageHost.toLowerCase());
}

export interface Collected {
  endpoints: Endpoint[];
  /** Distinct host names of the endpoints (relative ones: the page's). */
  hosts: string[];
  /** More were found than `max`. */
  capped: boolean;
}

/** Keeps, classifies and de-duplicates hits in the order met (the first source that names a value is its source). */
export class EndpointCollector {
  private readonly byValue = new Map<string, Endpoint>();
  private capped = false;

  constructor(
    private readonly pageUrl: string,
    private readonly includeThirdParty: boolean,
    private readonly max: number,
  ) {}

  add(hit: ScanHit, source: string): void {
    const parts = endpointValue(hit.value);
    if (!parts || isStaticAsset(parts.path)) return;
    if (hit.position !== 'request' && !looksLikeApi(parts)) return;
    const firstParty = !parts.host || sameSite(parts.host, new URL(this.pageUrl).hostname);
    if (!firstParty && !this.includeThirdParty) return;
    const known = this.byValue.get(parts.value);
    const kind = kindOf(parts, hit.api);
    if (known) {
      // A later call can say more (`new WebSocket("/live")` after a `"/live"` literal).
      if (known.kind === 'relative_path' || known.kind === 'absolute_url') known.kind = kind;
      return;
    }
    if (this.byValue.size >= this.max) {
      this.capped = true;
      return;
    }
    this.byValue.set(parts.value, { value: parts.value, kind, first_party: firstParty, source });
  }

  result(): Collected {
    const endpoints = [...this.byValue.values()];
    const pageHost = new URL(this.pageUrl).hostname;
    const hosts = new Set(endpoints.map((e) => endpointValue(e.value)?.host ?? pageHost));
    return { endpoints, hosts: [...hosts], capped: this.capped };
  }
}
