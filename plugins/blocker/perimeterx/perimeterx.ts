/**
 * blocker.perimeterx: the block page of HUMAN Bot Defender (formerly PerimeterX), titled "Access to
 * this page has been denied", with its "Press & Hold" human challenge in `#px-captcha`, loaded
 * from captcha.px-cdn.net or the site's first-party `/<app>/captcha/captcha.js`; API clients get
 * the same as JSON (`appId`, `blockScript`). Protected sites put the sensor (`window._pxAppId`,
 * client.px-cloud.net or `/<app>/init.js`) on every ordinary page, so the sensor alone is content.
 */
import { definePlugin } from '../../../core/kit.ts';
import type { BlockerInput, BlockVerdict } from '../../../core/kit.ts';
import { blockingStatus, setsCookie } from '../shared/page.ts';

const DENIED_TITLE = /^access to this page has been (?:denied|blocked)/i;

/**
 * Independent signs, each counted once. Only the block page has the `page` ones (the sensor signs
 * are on every protected page, a site's own 403 included); the `challenge` ones make it a CAPTCHA.
 */
const SIGNS: ReadonlyArray<{ name: string; mark: RegExp; page?: true; challenge?: true }> = [
  { name: 'px-captcha element', mark: /px-captcha|_pxCaptcha/, page: true, challenge: true },
  {
    name: 'captcha script',
    mark: /captcha\.px-(?:cdn|cloud)\.net\/|\/captcha\/captcha\.js|["']blockScript["']\s*:/,
    page: true,
    challenge: true,
  },
  { name: 'Press & Hold', mark: /Press (?:&amp;|&#38;|&) Hold/, page: true, challenge: true },
  { name: 'block link', mark: /whywasiblocked/, page: true },
  { name: 'sensor settings', mark: /_pxAppId|_pxJsClientSrc|_pxHostUrl|["']appId["']\s*:\s*["']PX/ },
  { name: 'sensor host', mark: /(?<!captcha\.)px-(?:cdn|cloud)\.net\// },
];
/** Any of the block page's own signs, in one pass: a site's ordinary 403 is read once, not six times. */
const ANY_PAGE_SIGN = new RegExp(
  SIGNS.filter((sign) => sign.page)
    .map((sign) => sign.mark.source)
    .join('|'),
);

export function recognisePerimeterx(page: BlockerInput): BlockVerdict | null {
  const titled = DENIED_TITLE.test(page.title);
  // The block page is served with a 403; its title opens the gate when a proxy changed the status.
  if (!titled && (!blockingStatus(page) || !ANY_PAGE_SIGN.test(page.body))) return null;
  const found = SIGNS.filter((sign) => sign.mark.test(page.body));
  const names = found.map((sign) => sign.name);
  if (titled) names.push('denied title');
  if (setsCookie(page, '_pxhd')) names.push('_pxhd cookie');
  // One sign can be quoted or coincidental; the block page always shows several, one of them its own.
  if (names.length < 2 || !(titled || found.some((sign) => sign.page))) return null;
  return { vendor: 'perimeterx', kind: found.some((sign) => sign.challenge) ? 'captcha' : 'block', evidence: names.join(', ') };
}

export const perimeterxBlocker = definePlugin({
  kind: 'blocker',
  name: 'perimeterx',
  description:
    'HUMAN (PerimeterX) block pages: "Access to this page has been denied", the Press & Hold challenge in #px-captcha, its captcha script and sensor settings.',
  enabledByDefault: true,
  setup: () => ({ recognise: recognisePerimeterx }),
});
