/**
 * blocker.hcaptcha: a page walled by an hCaptcha widget (js.hcaptcha.com/1/api.js and an
 * `h-captcha` element, or the challenge frames from hcaptcha.com in a rendered page), as opposed
 * to a form that carries one in a longer page (shared/captcha-wall.ts draws the line).
 */
import { definePlugin } from '../../../core/plugin.ts';
import { recogniseWall, wallOptions, type WallSpec } from '../shared/captcha-wall.ts';

export const HCAPTCHA: WallSpec = {
  vendor: 'hcaptcha',
  token: 'captcha',
  asset: /hcaptcha\.com\/1\/api\.js|hcaptcha\.com\/captcha\/v1\//,
  // `h-captcha-response` is the answer field, present wherever the widget is; the widget is the element.
  widget: /(?<![\w-])h-captcha(?![\w-])|hcaptcha\.render\(/,
};

export const hcaptchaBlocker = definePlugin({
  kind: 'blocker',
  name: 'hcaptcha',
  description: 'Pages walled by an hCaptcha widget (hcaptcha.com/1/api.js and an h-captcha element) with a blocking status, a verify-you-are-human title or little else to read.',
  options: wallOptions,
  enabledByDefault: true,
  setup: (options) => ({ recognise: (page) => recogniseWall(page, HCAPTCHA, options) }),
});
