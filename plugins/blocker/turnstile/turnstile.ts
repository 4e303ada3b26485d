/**
 * blocker.turnstile: a site's own page walled by a Cloudflare Turnstile widget
 * (challenges.cloudflare.com/turnstile/v0/api.js and a `cf-turnstile` element, or the widget's
 * frame in a rendered page) — a verification or sign-in page with little else on it. Cloudflare's
 * managed challenge runs Turnstile too, but that page is blocker.cloudflare's: it carries the
 * challenge state (`_cf_chl_opt`, `cf-mitigated`), where shared/captcha-wall.ts steps aside.
 */
import { wallPlugin } from '../shared/captcha-wall.ts';

export const turnstileBlocker = wallPlugin({
  vendor: 'turnstile',
  description:
    'Pages walled by a Cloudflare Turnstile widget (challenges.cloudflare.com/turnstile and a cf-turnstile element) with a blocking status, a verify-you-are-human title or little else to read.',
  asset: /challenges\.cloudflare\.com\/(?:turnstile\/v0\/|cdn-cgi\/challenge-platform\/[^"'\s]{0,80}?\/turnstile\/)/,
  widget: /(?<![\w-])cf-turnstile(?![\w-])|turnstile\.render\(/,
});
