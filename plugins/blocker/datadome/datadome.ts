/**
 * blocker.datadome: the page DataDome answers a suspected bot with — a stub that sets `var dd={…}`
 * and loads its CAPTCHA or device check from captcha-delivery.com, sent with a 403 and the
 * `x-datadome` header (a JSON client gets the same URL in a `{"url": …}` object). Protected sites
 * send that header and the `datadome` cookie with every page and load js.datadome.co on ordinary
 * ones, so only the captcha-delivery.com body counts, and only with company.
 */
import { definePlugin } from '../../../core/kit.ts';
import type { BlockerInput, BlockVerdict } from '../../../core/kit.ts';
import { blockingStatus, INTERSTITIAL_CHARS, saysLittle, setsCookie } from '../shared/page.ts';

const HOST = 'captcha-delivery.com';
const DD_OBJECT = /\bdd\s*=\s*\{/;
/** `rt` is the response type: `i` the device-check interstitial, `c` the CAPTCHA; `t: 'bv'` a hard block. */
const INTERSTITIAL = /["']rt["']\s*:\s*["']i["']|captcha-delivery\.com\/interstitial\//;
const HARD_BLOCK = /["']t["']\s*:\s*["']bv["']/;

export function recogniseDatadome(page: BlockerInput): BlockVerdict | null {
  const header = page.headers['x-datadome'] !== undefined || page.headers['x-dd-b'] !== undefined;
  const cookie = setsCookie(page, 'datadome');
  const blocking = blockingStatus(page);
  // Nothing of DataDome's in the headers and an ordinary status: not worth a pass over the body.
  if (!blocking && !header && !cookie) return null;
  if (page.body.indexOf(HOST) === -1) return null;
  const object = DD_OBJECT.test(page.body);
  const marks = [header && 'x-datadome header', cookie && 'datadome cookie', object && 'dd object'].filter(Boolean);
  if (marks.length === 0) return null;
  // On a 200 the stub must also be all the page says (an article can quote the host and `dd={`).
  if (!blocking && (marks.length < 2 || !saysLittle(page, INTERSTITIAL_CHARS))) return null;
  const kind = INTERSTITIAL.test(page.body) ? 'challenge' : HARD_BLOCK.test(page.body) ? 'block' : 'captcha';
  return { vendor: 'datadome', kind, evidence: `${HOST} with ${marks.join(', ')}${blocking ? ` on ${page.status}` : ''}` };
}

export const datadomeBlocker = definePlugin({
  kind: 'blocker',
  name: 'datadome',
  description:
    'DataDome CAPTCHA, device-check and block responses (captcha-delivery.com with the x-datadome header, datadome cookie or dd object).',
  enabledByDefault: true,
  setup: () => ({ recognise: recogniseDatadome }),
});
