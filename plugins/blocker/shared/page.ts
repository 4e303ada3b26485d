/**
 * What the blocker recognisers share about reading a response cheaply: which statuses an
 * anti-bot page is served with, cookie lookups, and a bounded count of the text a reader would
 * see, remembered per page. Recognisers run on every fetch, so nothing here parses the page or
 * reads more of the body than it must.
 */
import { BLOCKER_BODY_CHARS } from '../../../core/kit.ts';
import type { BlockerInput } from '../../../core/kit.ts';

/**
 * Interstitials and block pages come with these (Cloudflare 403/503, DataDome and HUMAN 403,
 * rate limits 429, Akamai's sec-cpt 428). A body marker on a 200 page needs stronger company.
 */
const BLOCKING_STATUSES = new Set([403, 428, 429, 503]);

export const blockingStatus = (page: BlockerInput): boolean => BLOCKING_STATUSES.has(page.status);

const little = new WeakMap<BlockerInput, Map<number, boolean>>();

/**
 * Whether the page says at most `limit` visible characters. Only a page whose body was read whole
 * can say so: a body cut at 256 KB may have spent all of it on inline styles and scripts before
 * its text begins, and interstitials are a few kilobytes anyway.
 */
export function saysLittle(page: BlockerInput, limit: number): boolean {
  // Asked of every page by each CAPTCHA wall with the same limit: one count serves them all.
  let answers = little.get(page);
  if (!answers) little.set(page, (answers = new Map()));
  let answer = answers.get(limit);
  if (answer === undefined) answers.set(limit, (answer = page.body.length < BLOCKER_BODY_CHARS && visibleChars(page.body, limit) <= limit));
  return answer;
}

/**
 * Visible characters below which a page says next to nothing but its interstitial. Vendor pages
 * stay under a few hundred (spaces not counted); the dev-set pages that hold a CAPTCHA widget
 * have 3,000 and more.
 */
export const INTERSTITIAL_CHARS = 600;

/** Whether the response sets a cookie of this name (`set-cookie` values are joined with ", "). */
export function setsCookie(page: BlockerInput, name: string): boolean {
  const cookies = page.headers['set-cookie'];
  if (!cookies) return false;
  for (let at = cookies.indexOf(`${name}=`); at !== -1; at = cookies.indexOf(`${name}=`, at + 1)) {
    // A name starts the header or follows the ", " that joins two cookies.
    if (at === 0 || /[,;]\s*$/.test(cookies.slice(Math.max(0, at - 3), at))) return true;
  }
  return false;
}

/**
 * Elements whose content no reader sees as the page's text. `<noscript>` is not one: without
 * JavaScript, which is how most pages are fetched, it is what the page shows (forum posts live there).
 */
const HIDDEN_START = /<(script|style|template|title|svg|textarea)\b/iy;
const hiddenEnd = new Map<string, RegExp>();
const endOf = (name: string) => {
  let end = hiddenEnd.get(name);
  if (!end) hiddenEnd.set(name, (end = new RegExp(`</${name}\\s*>`, 'gi')));
  return end;
};

/**
 * Non-space characters of the page's text outside markup, comments and the elements above,
 * counted only until `limit` is passed (the answer is then `limit + 1`): a long page costs no
 * more than a short one. Entities count as written, which is close enough for a size test.
 */
export function visibleChars(body: string, limit: number): number {
  let count = 0;
  let i = 0;
  while (i < body.length && count <= limit) {
    const open = body.indexOf('<', i);
    const stop = open === -1 ? body.length : open;
    for (let j = i; j < stop; j++) if (body.charCodeAt(j) > 32) count++;
    if (open === -1) break;
    if (body.startsWith('<!--', open)) {
      const close = body.indexOf('-->', open + 4);
      i = close === -1 ? body.length : close + 3;
      continue;
    }
    HIDDEN_START.lastIndex = open;
    const hidden = HIDDEN_START.exec(body);
    if (hidden) {
      const end = endOf(hidden[1]!.toLowerCase());
      end.lastIndex = open;
      i = end.exec(body) ? end.lastIndex : body.length;
      continue;
    }
    const close = body.indexOf('>', open + 1);
    i = close === -1 ? body.length : close + 1;
  }
  return Math.min(count, limit + 1);
}
