/**
 * The comparable form of a page's content, shared by watch checks and POST /v1/diff: each line of
 * the page's own text beside a key in which the noise that changes on every load is masked, so
 * only real edits count as change. Scripts, styles, hidden inputs, sidebars and ads are already
 * gone before this (the scrape reads the main content as markdown); this pass handles the rest:
 * - URLs, always: tracking and cache-busting parameters and session/CSRF-like parameters dropped,
 *   the remaining parameters sorted, fragments dropped;
 * - presets (`ignore_patterns`, all on by default): `tokens` (long random-looking strings become
 *   `<token>`), `relative_time` ("5 minutes ago" becomes `<ago>`), `counters` (view, like, comment
 *   counts become `<count>`), and `clock`: times of day and timestamps are kept out of the key as
 *   values (clock.ts), and two versions' times count as the same only when both show the time each
 *   version was fetched — a timetable's "09:12" becoming "09:47" is always a change;
 * - whitespace: runs collapsed, lines trimmed, blank lines dropped;
 * - the watch's own `ignore_text` patterns: lines containing one are left out.
 * Every pattern here is linear (no nested quantifiers), and ignore patterns are matched without
 * regular expressions, so hostile content or patterns cannot stall a check.
 */
import { readTimes, type TimeValue } from './clock.ts';

/** Volatile-text presets a watch can switch off. */
export const IGNORE_PATTERNS = ['clock', 'relative_time', 'counters', 'tokens'] as const;
export type IgnorePattern = (typeof IGNORE_PATTERNS)[number];

const TRACKING_PARAM =
  /^(utm_[a-z_]+|fbclid|gclid|gclsrc|dclid|msclkid|mc_cid|mc_eid|yclid|igshid|_ga|_gl|_hsenc|_hsmi|ref_src|spm|cb|_|ts|timestamp|nocache|cachebuster|rnd|rand|random|v)$/i;
const TOKEN_PARAM =
  /(?:^|[_-])(?:token|csrf|xsrf|csrftoken|xsrftoken|nonce|session|sessionid|sessid|phpsessid|jsessionid|sid|signature|sig|auth|state)$/i;
const URL_IN_TEXT = /\bhttps?:\/\/[^\s)<>"'\]]+/g;
/** Runs that might be tokens; isToken decides (a regex with lookaheads would be quadratic on long runs). */
const TOKEN_CANDIDATE = /[A-Za-z0-9_-]{16,}/g;
const AGO = /\b(?:\d+|an?|one)\s+(?:sec(?:ond)?s?|min(?:ute)?s?|h(?:ou)?rs?|hours?|days?|weeks?|months?|years?)\s+ago\b|\bjust now\b/gi;
const COUNTER =
  /\b\d[\d,.]{0,15}\s?[kmb]?\+?\s+(?=(?:views?|likes?|comments?|replies|shares?|followers?|reads?|plays?|visitors?|online|watching|reactions?|votes?|stars?|downloads?)\b)/gi;
/** What stands for a time in a key; the time itself is kept in the line's `times`. */
export const TIME_MARK = '\u0001';

export interface NoiseRules {
  /** Lines containing any of these are left out: case-insensitive, `*` matches any run of characters. */
  ignoreText?: readonly string[];
  /** The presets on; default all. */
  patterns?: readonly IgnorePattern[];
}

/** One line of a version: the page's own text, and what the comparison sees of it. */
export interface NormalLine {
  /** The page's text of the line, whitespace collapsed. */
  raw: string;
  /** The line with the presets' noise masked; with `clock` on, its times are TIME_MARKs. */
  key: string;
  /** The times TIME_MARKs stand for, in order (empty with `clock` off). */
  times: TimeValue[];
}

/** A link as the comparison sees it: tracking and token parameters gone, the rest sorted, no fragment. */
export function normaliseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw;
  }
  const kept = [...url.searchParams].filter(([name]) => !TRACKING_PARAM.test(name) && !TOKEN_PARAM.test(name));
  kept.sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1));
  url.search = new URLSearchParams(kept).toString();
  url.hash = '';
  return url.toString();
}

/** Whether `line` contains `pattern` (case-insensitive; `*` = any run), found piece by piece without a regex. */
export function containsPattern(line: string, pattern: string): boolean {
  const pieces = pattern.toLowerCase().split('*').filter(Boolean);
  if (pieces.length === 0) return false;
  const text = line.toLowerCase();
  let from = 0;
  for (const piece of pieces) {
    const at = text.indexOf(piece, from);
    if (at < 0) return false;
    from = at + piece.length;
  }
  return true;
}

/** The first of `patterns` some line of `lines` contains, or null. */
export function firstPresent(lines: readonly string[], patterns: readonly string[]): string | null {
  return patterns.find((pattern) => lines.some((line) => containsPattern(line, pattern))) ?? null;
}

/**
 * A random-looking run: a UUID, 16+ hex digits with a digit among them, or a 16+ character piece
 * (between `-`/`_`) mixing letters and digits. Slugs ("state-of-the-art-2024") are short words.
 */
export function isToken(run: string): boolean {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(run)) return true;
  if (/^[0-9a-f]+$/i.test(run) && /\d/.test(run)) return true;
  return run.split(/[-_]/).some((piece) => piece.length >= 16 && /\d/.test(piece) && /[A-Za-z]/.test(piece));
}

/** One line with the presets' noise masked and its times lifted out (clock on). */
export function normaliseLine(line: string, patterns: ReadonlySet<IgnorePattern>): NormalLine {
  const raw = line.replace(/\s+/g, ' ').trim();
  let key = raw.replace(URL_IN_TEXT, (url) => normaliseUrl(url));
  let times: TimeValue[] = [];
  if (patterns.has('clock')) ({ text: key, times } = readTimes(key, TIME_MARK));
  if (patterns.has('relative_time')) key = key.replace(AGO, '<ago>');
  if (patterns.has('counters')) key = key.replace(COUNTER, '<count> ');
  if (patterns.has('tokens')) key = key.replace(TOKEN_CANDIDATE, (run) => (isToken(run) ? '<token>' : run));
  return { raw, key, times };
}

const ALL_PATTERNS: ReadonlySet<IgnorePattern> = new Set(IGNORE_PATTERNS);

/** The comparable lines: one per non-blank, non-ignored line of the content. */
export function normaliseLines(content: string, rules: NoiseRules = {}): NormalLine[] {
  const ignore = rules.ignoreText ?? [];
  const patterns = rules.patterns ? new Set(rules.patterns) : ALL_PATTERNS;
  const lines: NormalLine[] = [];
  for (const raw of content.split(/\r?\n/)) {
    if (ignore.some((pattern) => containsPattern(raw, pattern))) continue;
    const line = normaliseLine(raw, patterns);
    if (line.raw) lines.push(line);
  }
  return lines;
}

/** The distinct normalised link targets of a page, for links added and removed. */
export function normaliseLinks(hrefs: readonly string[]): string[] {
  return [...new Set(hrefs.map(normaliseUrl))];
}
