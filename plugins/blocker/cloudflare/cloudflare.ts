/**
 * blocker.cloudflare: Cloudflare's challenge pages (the managed and JavaScript challenges behind
 * "Just a moment…", the older CAPTCHA challenge) and its firewall block pages ("Sorry, you have
 * been blocked", the 10xx access-denied and rate-limit errors). A page Cloudflare merely serves
 * (a `server: cloudflare` or `cf-ray` header, the bot-detection script `challenge-platform/scripts/jsd`
 * that it injects into ordinary pages) is content, and so are its 5xx origin-error pages: they
 * say the site is down, not that we are kept out.
 */
import { definePlugin } from '../../../core/kit.ts';
import type { BlockerInput, BlockVerdict } from '../../../core/kit.ts';
import { blockingStatus } from '../shared/page.ts';

/**
 * Titles of the challenge and block pages. Cloudflare translates the challenge's title ("Un
 * instant…"), so a blocking status stands in for it; the English titles also open the gate on the
 * rare proxy that passes a challenge on with a 200.
 */
const CHALLENGE_TITLE = /^(?:just a moment|please wait\.*\s*\|\s*cloudflare|attention required!?\s*\|\s*cloudflare)/i;
const BLOCK_TITLE = /^attention required!?\s*\|\s*cloudflare|used cloudflare to restrict access/i;

/**
 * Only the challenge platform's page scripts and state: `_cf_chl_opt` (the challenge's settings),
 * the `__cf_chl_…` form tokens, the `orchestrate/` path the challenge loads, the legacy
 * `cf-browser-verification` box. Not `challenge-platform/scripts/jsd`, which ordinary pages carry.
 */
const CHALLENGE_MARK = /_cf_chl_opt|__cf_chl_|cf-browser-verification|\/cdn-cgi\/challenge-platform\/(?:h\/\w\/)?orchestrate\//;
/** The CAPTCHA flavour of the older challenge page. */
const CAPTCHA_MARK = /cf-captcha-container|cf_captcha_kind/;

/** The block page's frame: present on Cloudflare's error pages, including the 5xx ones. */
const ERROR_FRAME = /id=["']?cf-error-details|cf-error-code|cf-footer-item|Cloudflare Ray ID/;
/** What only the blocking errors say (WAF block, 1005-1010 bans, 1015 rate limit, 1020 access rule). */
const BLOCK_WORDS =
  /Sorry, you have been blocked|data-translate=["']?block_headline|used Cloudflare to restrict access|You are being rate limited|has banned (?:your|the) /;

export function recogniseCloudflare(page: BlockerInput): BlockVerdict | null {
  // Cloudflare sets this header on exactly the responses that are a challenge.
  if (page.headers['cf-mitigated']?.trim().toLowerCase() === 'challenge') {
    return {
      vendor: 'cloudflare',
      kind: CAPTCHA_MARK.test(page.body) ? 'captcha' : 'challenge',
      evidence: 'cf-mitigated: challenge header',
    };
  }
  const blocking = blockingStatus(page);
  // An article about these pages quotes their words on a 200 under its own title: body markers count only behind the gate.
  if (blocking || CHALLENGE_TITLE.test(page.title)) {
    const mark = CHALLENGE_MARK.exec(page.body);
    if (mark) {
      const captcha = CAPTCHA_MARK.test(page.body);
      return { vendor: 'cloudflare', kind: captcha ? 'captcha' : 'challenge', evidence: `challenge page marker ${mark[0]}` };
    }
  }
  if (blocking || BLOCK_TITLE.test(page.title)) {
    const frame = ERROR_FRAME.exec(page.body);
    const words = frame && BLOCK_WORDS.exec(page.body);
    if (words) return { vendor: 'cloudflare', kind: 'block', evidence: `block page (${frame[0]}): ${words[0]}` };
  }
  return null;
}

export const cloudflareBlocker = definePlugin({
  kind: 'blocker',
  name: 'cloudflare',
  description:
    'Cloudflare challenge pages ("Just a moment…", cf-mitigated: challenge) and firewall block pages ("Sorry, you have been blocked", errors 1005-1020).',
  enabledByDefault: true,
  setup: () => ({ recognise: recogniseCloudflare }),
});
