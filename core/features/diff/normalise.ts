/**
 * The comparable form of a page's content, shared by watch checks and POST /v1/diff: what is left
 * once the noise that changes on every load is taken out, so only real edits count as change.
 * The page's scripts, styles, hidden inputs (CSRF tokens), sidebars and ads are already gone
 * before this — the scrape reads the main content as markdown — and this pass removes the rest:
 * - URLs: tracking and cache-busting parameters dropped, session/CSRF-like parameters dropped,
 *   the remaining parameters sorted (reordered query strings are the same link), fragments dropped;
 * - tokens: long random-looking strings (hex, base64, UUIDs) become `<token>`;
 * - clocks: times of day, full timestamps and relative ages ("5 minutes ago") become placeholders,
 *   and counters of views, likes, comments and the like become `<count>`; calendar dates are kept
 *   (a changed date is usually a real change);
 * - whitespace: runs collapsed, lines trimmed, blank lines dropped;
 * - the watch's own `ignore_text` patterns: lines containing one are left out.
 * Every pattern here is linear (no nested quantifiers), and ignore patterns are matched without
 * regular expressions, so hostile content or patterns cannot stall a check.
 */

const TRACKING_PARAM = /^(utm_[a-z_]+|fbclid|gclid|gclsrc|dclid|msclkid|mc_cid|mc_eid|yclid|igshid|_ga|_gl|_hsenc|_hsmi|ref_src|spm|cb|_|ts|timestamp|nocache|cachebuster|rnd|rand|random|v)$/i;
const TOKEN_PARAM = /(?:^|[_-])(?:token|csrf|xsrf|csrftoken|xsrftoken|nonce|session|sessionid|sessid|phpsessid|jsessionid|sid|signature|sig|auth|state)$/i;
const URL_IN_TEXT = /\bhttps?:\/\/[^\s)<>"'\]]+/g;
/** Runs that might be tokens; isToken decides (a regex with lookaheads would be quadratic on long runs). */
const TOKEN_CANDIDATE = /[A-Za-z0-9_-]{16,}/g;
const TIMESTAMP = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g;
const TIME_OF_DAY = /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?(?![\d:])/gi;
const AGO = /\b(?:\d+|an?|one)\s+(?:sec(?:ond)?s?|min(?:ute)?s?|h(?:ou)?rs?|hours?|days?|weeks?|months?|years?)\s+ago\b|\bjust now\b/gi;
const COUNTER = /\b\d[\d,.]{0,15}\s?[kmb]?\+?\s+(?=(?:views?|likes?|comments?|replies|shares?|followers?|reads?|plays?|visitors?|online|watching|reactions?|votes?|stars?|downloads?)\b)/gi;

export interface NoiseRules {
  /** Lines containing any of these are left out: case-insensitive, `*` matches any run of characters. */
  ignoreText?: readonly string[];
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

/**
 * A random-looking run: a UUID, 16+ hex digits with a digit among them, or a 16+ character piece
 * (between `-`/`_`) mixing letters and digits. Slugs ("state-of-the-art-2024") are short words.
 */
export function isToken(run: string): boolean {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(run)) return true;
  if (/^[0-9a-f]+$/i.test(run) && /\d/.test(run)) return true;
  return run.split(/[-_]/).some((piece) => piece.length >= 16 && /\d/.test(piece) && /[A-Za-z]/.test(piece));
}

/** One line with its noise replaced by placeholders. */
export function normaliseLine(line: string): string {
  return line
    .replace(URL_IN_TEXT, (url) => normaliseUrl(url))
    .replace(TIMESTAMP, '<timestamp>')
    .replace(AGO, '<ago>')
    .replace(TIME_OF_DAY, '<time>')
    .replace(COUNTER, '<count> ')
    .replace(TOKEN_CANDIDATE, (run) => (isToken(run) ? '<token>' : run))
    .replace(/\s+/g, ' ')
    .trim();
}

/** The comparable text: one normalised line per non-blank, non-ignored line of the content. */
export function normaliseContent(content: string, rules: NoiseRules = {}): string {
  const ignore = rules.ignoreText ?? [];
  const lines: string[] = [];
  for (const raw of content.split(/\r?\n/)) {
    if (ignore.some((pattern) => containsPattern(raw, pattern))) continue;
    const line = normaliseLine(raw);
    if (line) lines.push(line);
  }
  return lines.join('\n');
}

/** The distinct normalised link targets of a page, for links added and removed. */
export function normaliseLinks(hrefs: readonly string[]): string[] {
  return [...new Set(hrefs.map(normaliseUrl))];
}
