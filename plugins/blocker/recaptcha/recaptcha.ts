/**
 * blocker.recaptcha: a page walled by a Google reCAPTCHA widget — the checkbox or image challenge
 * of v2 or Enterprise, loaded from google.com or recaptcha.net — rather than a page that merely
 * protects a form with one (shared/captcha-wall.ts draws the line). v3 has no widget: a page
 * that only scores its visitors (`api.js?render=…`, `grecaptcha.execute`) is never a wall.
 */
import { wallPlugin } from '../shared/captcha-wall.ts';

export const recaptchaBlocker = wallPlugin({
  vendor: 'recaptcha',
  description:
    'Pages walled by a reCAPTCHA widget (google.com/recaptcha/api.js and a g-recaptcha element) with a blocking status, a verify-you-are-human title or little else to read.',
  // The loader, or the frames it leaves in a rendered page.
  asset: /\/recaptcha\/(?:api\.js|enterprise\.js|api2\/(?:anchor|bframe)|enterprise\/(?:anchor|bframe))/,
  // `g-recaptcha-response` is the hidden answer field every variant (v3 too) adds: not a widget.
  widget: /(?<![\w-])g-recaptcha(?![\w-])|grecaptcha(?:\.enterprise)?\.render\(/,
});
