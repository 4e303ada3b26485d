/**
 * blocker.hcaptcha: a page walled by an hCaptcha widget (js.hcaptcha.com/1/api.js and an
 * `h-captcha` element, or the challenge frames from hcaptcha.com in a rendered page), as opposed
 * to a form that carries one in a longer page (shared/captcha-wall.ts draws the line).
 */
import { wallPlugin } from '../shared/captcha-wall.ts';

export const hcaptchaBlocker = wallPlugin({
  vendor: 'hcaptcha',
  description:
    'Pages walled by an hCaptcha widget (hcaptcha.com/1/api.js and an h-captcha element) with a blocking status, a verify-you-are-human title or little else to read.',
  asset: /hcaptcha\.com\/1\/api\.js|hcaptcha\.com\/captcha\/v1\//,
  // `h-captcha-response` is the answer field, present wherever the widget is; the widget is the element.
  widget: /(?<![\w-])h-captcha(?![\w-])|hcaptcha\.render\(/,
});
