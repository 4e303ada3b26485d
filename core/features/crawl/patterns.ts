/**
 * Path patterns of a crawl's include and exclude lists, in either syntax a wire format offers:
 * globs (globs.ts, /v1) or regular expressions tested unanchored against the path (/v2, as
 * Firecrawl does). Regexes run on RE2 (re2js): matching is linear in the path, so a pattern
 * cannot make a hostile page's links take seconds, and look-around or back-references, which
 * would need backtracking, are refused when the crawl starts.
 */
import { RE2JS } from 're2js';
import { GlobSet, globProblem } from './globs.ts';

export type PathSyntax = 'glob' | 'regex';

export interface PathMatcher {
  matches(path: string): boolean;
  /** Upper bound of the work `matches(path)` does per path character, for budgeting. */
  readonly size: number;
}

export const MAX_REGEX_LENGTH = 1000;

class RegexSet implements PathMatcher {
  private readonly compiled: RE2JS[];
  readonly size: number;

  constructor(patterns: readonly string[]) {
    this.compiled = patterns.map((pattern) => RE2JS.compile(pattern));
    this.size = patterns.reduce((sum, pattern) => sum + pattern.length + 1, 0);
  }

  matches(path: string): boolean {
    return this.compiled.some((regex) => regex.matcher(path).find());
  }
}

/** Why a pattern cannot be used in `syntax`, or null. */
export function patternProblem(pattern: string, syntax: PathSyntax): string | null {
  if (syntax === 'glob') return globProblem(pattern);
  if (pattern.length > MAX_REGEX_LENGTH) return `is longer than ${MAX_REGEX_LENGTH} characters`;
  try {
    RE2JS.compile(pattern);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

export function pathMatcher(patterns: readonly string[], syntax: PathSyntax): PathMatcher {
  return syntax === 'regex' ? new RegexSet(patterns) : new GlobSet(patterns);
}
