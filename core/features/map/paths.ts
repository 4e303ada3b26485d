/**
 * The path filter of a map (`filter_by_path`, /v2 `filterByPath`, on by default as in Firecrawl's
 * map): a start URL with a path lists only URLs at or below it. "Below" goes by whole path
 * segments, so `/docs` and `/docs/` both keep `/docs`, `/docs/` and `/docs/…` but not
 * `/docsearch` (a plain string prefix would list a sibling section). A start URL whose last
 * segment looks like a file (a dot in it: `/docs/index.html`) stands for its directory (`/docs/`);
 * a path of `/` keeps everything. Segments are compared decoded, so the case of an escape does not
 * matter. Hosts are not part of it: which hosts belong is the site scope's (core/net/scope.ts).
 */

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const segmentsOf = (path: string) => path.split('/').filter(Boolean).map(decodeSegment);

/** The segments a start URL's path lists below (its directory when it names a file). */
export function pathBase(path: string): string[] {
  const segments = segmentsOf(path);
  const last = segments.at(-1);
  // `.well-known` is a directory: only a dot after the first character marks a file name.
  if (!path.endsWith('/') && last !== undefined && last.lastIndexOf('.') > 0) segments.pop();
  return segments;
}

/** The base as people write it: `/docs/`, or `/` for the whole site. */
export const basePath = (base: readonly string[]) => (base.length ? `/${base.join('/')}/` : '/');

/** A test of URL paths: at or below any of `bases` (the start URL's, and where it redirected). */
export function pathFilter(bases: ReadonlyArray<readonly string[]>): (path: string) => boolean {
  if (bases.some((base) => base.length === 0)) return () => true;
  return (path) => {
    const segments = segmentsOf(path);
    return bases.some((base) => base.length <= segments.length && base.every((segment, i) => segments[i] === segment));
  };
}
