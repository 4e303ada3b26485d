/**
 * Which discovered links a crawl follows: the site scope of core/net/scope.ts (the start host,
 * `www.` or not; `allow_subdomains` → the registrable domain; `allow_external_links` → any
 * host), the path globs (`include_paths` / `exclude_paths`, globs.ts on the URL path; exclusion
 * wins; regexes instead for wire formats that speak them, patterns.ts), an optional path prefix
 * the crawl stays under, and a short list of file types that no document plugin turns into content (images,
 * media, fonts, archives, scripts), which would only spend `max_pages` on failures.
 */
import { scopeMode, siteScope } from '../../net/scope.ts';
import { pathMatcher, type PathSyntax } from './patterns.ts';
import type { CrawlUrl } from './urls.ts';

export interface ScopeRules {
  /** Host names that belong to the crawl (the start host and where it redirected). */
  hosts: readonly string[];
  allowSubdomains: boolean;
  allowExternal: boolean;
  include: readonly string[];
  exclude: readonly string[];
  /** How `include` and `exclude` are written; globs by default. */
  syntax?: PathSyntax;
  /** Only paths starting with this are followed (a crawl kept below its start page). */
  pathPrefix?: string;
}

const SKIPPED_EXTENSIONS = new Set([
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'avif',
  'svg',
  'ico',
  'bmp',
  'tif',
  'tiff',
  'mp3',
  'mp4',
  'm4a',
  'm4v',
  'webm',
  'ogg',
  'ogv',
  'wav',
  'flac',
  'mov',
  'avi',
  'mkv',
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
  'css',
  'js',
  'mjs',
  'map',
  'wasm',
  'zip',
  'gz',
  'tgz',
  'bz2',
  'xz',
  '7z',
  'rar',
  'tar',
  'dmg',
  'exe',
  'msi',
  'deb',
  'rpm',
  'apk',
  'iso',
  'bin',
]);

/** A glob names a path: `blog/**` means `/blog/**`. */
export function pathGlob(pattern: string): string {
  const trimmed = pattern.trim();
  return trimmed.startsWith('/') || trimmed.startsWith('*') ? trimmed : `/${trimmed}`;
}

/** Paths longer than this are not followed: no real page needs one, and globs cost per character. */
export const MAX_PATH_LENGTH = 2048;

export interface Scope {
  (url: CrawlUrl): boolean;
  /** Upper bound of the glob work for this URL, for a per-page budget. */
  cost(url: CrawlUrl): number;
}

function extensionOf(path: string): string {
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot > 0 ? last.slice(dot + 1).toLowerCase() : '';
}

export function createScope(rules: ScopeRules): Scope {
  const onSite = siteScope(rules.hosts, scopeMode({ subdomains: rules.allowSubdomains, external: rules.allowExternal }));
  const syntax = rules.syntax ?? 'glob';
  const patterns = (list: readonly string[]) => (syntax === 'glob' ? list.map(pathGlob) : list);
  const include = rules.include.length ? pathMatcher(patterns(rules.include), syntax) : null;
  const exclude = rules.exclude.length ? pathMatcher(patterns(rules.exclude), syntax) : null;
  const scope = (url: CrawlUrl) => {
    if (!onSite(url.host)) return false;
    if (url.path.length > MAX_PATH_LENGTH || SKIPPED_EXTENSIONS.has(extensionOf(url.path))) return false;
    if (rules.pathPrefix && !url.path.startsWith(rules.pathPrefix)) return false;
    let path: string;
    try {
      path = decodeURIComponent(url.path);
    } catch {
      path = url.path;
    }
    if (exclude?.matches(path)) return false;
    return include ? include.matches(path) : true;
  };
  const globSize = (include?.size ?? 0) + (exclude?.size ?? 0);
  return Object.assign(scope, { cost: (url: CrawlUrl) => Math.min(url.path.length, MAX_PATH_LENGTH) * globSize });
}
