/**
 * The rule the CAPTCHA-widget recognisers (recaptcha, hcaptcha, turnstile) share. A widget is
 * everywhere — comment forms, contact forms, sign-ups — so finding one proves nothing; it is a
 * wall when it covers the page: served with a blocking status, under a title that asks the
 * reader to prove they are human, or with next to nothing else to read. And a widget inside an
 * anti-bot vendor's own interstitial is that vendor's page, named by its recogniser: the walls
 * step aside there, so the answer does not hang on the order recognisers are asked in.
 */
import { z } from 'zod';
import { definePlugin } from '../../../core/kit.ts';
import type { BlockerInput, BlockVerdict } from '../../../core/kit.ts';
import { blockingStatus, INTERSTITIAL_CHARS, saysLittle } from './page.ts';

export const wallOptions = z.strictObject({
  maxVisibleChars: z
    .number()
    .int()
    .min(0)
    .max(100_000)
    .default(INTERSTITIAL_CHARS)
    .describe(
      'A page with a CAPTCHA widget and at most this many characters of visible text (spaces not counted) is a CAPTCHA wall; a longer page is content that happens to hold a form with a CAPTCHA.',
    ),
});
export type WallOptions = z.output<typeof wallOptions>;

export interface WallSpec {
  /** The vendor id, which is also the plugin's name. */
  vendor: string;
  description: string;
  /** The vendor's script or frame: the widget is really that vendor's. */
  asset: RegExp;
  /** The widget itself on the page (its class, or the call that renders it). */
  widget: RegExp;
}

/** Titles that ask the reader to prove something about themselves (English only). */
const HUMAN_TITLE =
  /\bcaptcha\b|\bverif(?:y|ying|ication)\b.{0,30}\b(?:human|not a (?:ro)?bot|browser)\b|\bhuman verification\b|\bare you (?:a )?(?:human|robot|bot)\b|\bnot a robot\b|\bsecurity check\b|\bbot (?:check|verification)\b/i;

/**
 * The anti-bot vendors' interstitial markers, the same ones their recognisers read (Cloudflare's
 * challenge state and old CAPTCHA page, DataDome's host, HUMAN's challenge box, Akamai's sec-cpt).
 */
const VENDOR_PAGE = /_cf_chl_|cf-captcha-container|captcha-delivery\.com|px-captcha|\/_sec\/cp_challenge\//;

/**
 * Fields a reader fills in (a password, an e-mail address, a message, a name): a page built around
 * such a form — a log-in, a sign-up, a contact page — is the page, whatever guards its submit
 * button. A wall asks for nothing but the CAPTCHA.
 */
const FORM_FIELDS =
  /<textarea\b|<input\b[^>]*\b(?:type\s*=\s*["']?(?:password|email|tel)\b|name\s*=\s*["']?(?:e-?mail|user(?:name)?|login|log|pass(?:word)?|name|message|phone)\b|autocomplete\s*=\s*["']?(?:username|email|current-password|new-password)\b)/i;

export function recogniseWall(page: BlockerInput, spec: WallSpec, options: WallOptions): BlockVerdict | null {
  // The page's look first: a bounded count of its text is cheaper than a search of the whole body
  // for the widget, and a long 200 page with an ordinary title (nearly every page) stops here.
  const why = blockingStatus(page)
    ? `status ${page.status}`
    : HUMAN_TITLE.test(page.title)
      ? `title "${page.title}"`
      : saysLittle(page, options.maxVisibleChars)
        ? `at most ${options.maxVisibleChars} characters of visible text`
        : null;
  if (!why) return null;
  const asset = spec.asset.exec(page.body);
  const widget = asset && spec.widget.exec(page.body);
  if (!widget) return null;
  if (page.headers['cf-mitigated'] !== undefined || VENDOR_PAGE.test(page.body)) return null;
  // Only a title that asks the reader to prove they are human outweighs a form of the page's own.
  if (!why.startsWith('title') && FORM_FIELDS.test(page.body)) return null;
  return { vendor: spec.vendor, kind: 'captcha', evidence: `${asset[0]} and ${widget[0]}, ${why}` };
}

/** A CAPTCHA wall's plugin: the shared rule and options, this vendor's markers. */
export const wallPlugin = (spec: WallSpec) =>
  definePlugin({
    kind: 'blocker',
    name: spec.vendor,
    description: spec.description,
    options: wallOptions,
    enabledByDefault: true,
    setup: (options) => ({ recognise: (page) => recogniseWall(page, spec, options) }),
  });
