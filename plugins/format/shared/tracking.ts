/**
 * Tracking junk in content: campaign and click-id query parameters on links (`utm_*`, `fbclid`,
 * `gclid` …) and 1×1 tracking images. Shared by the markdown, links, json and llm formats so a
 * URL reads the same in every one of them.
 */

/** Parameters that only identify a campaign, click or mail recipient; the page is the same without them. */
const TRACKING_PARAMS = new Set([
  'fbclid',
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_hsenc',
  '_hsmi',
  '__hstc',
  '__hssc',
  '__hsfp',
  'hsctatracking',
  'mkt_tok',
  '_ga',
  '_gl',
  'oly_enc_id',
  'oly_anon_id',
  'vero_id',
  'vero_conv',
  'wickedid',
  'rb_clickid',
  's_cid',
  'ref_src',
  'ref_url',
]);

export function isTrackingParam(name: string): boolean {
  const key = name.toLowerCase();
  return key.startsWith('utm_') || TRACKING_PARAMS.has(key);
}

function paramName(pair: string): string {
  const name = pair.split('=', 1)[0]!;
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/**
 * The URL without tracking parameters. The query is edited as text, not re-serialised through
 * URLSearchParams, so the parameters that stay keep their exact encoding and order.
 */
export function stripTrackingParams(url: string): string {
  const hash = url.indexOf('#');
  const end = hash < 0 ? url.length : hash;
  const query = url.indexOf('?');
  if (query < 0 || query > end) return url;
  const pairs = url.slice(query + 1, end).split('&');
  const kept = pairs.filter((pair) => pair !== '' && !isTrackingParam(paramName(pair)));
  if (kept.length === pairs.length) return url;
  return url.slice(0, query) + (kept.length ? `?${kept.join('&')}` : '') + url.slice(end);
}

/**
 * Hosts that serve nothing but tracking images. Narrower than the noscript rule of the clean
 * transform: this one judges visible images, so a path merely containing "pixel" or "analytics"
 * (a pixel-art sprite, a screenshot of an analytics dashboard) must not count.
 */
const TRACKER_HOST =
  /^https?:\/\/(?:[^/]*\.)?(?:facebook\.com\/tr\b|google-analytics\.com\/|googletagmanager\.com\/|doubleclick\.net\/|scorecardresearch\.com\/|quantserve\.com\/|bat\.bing\.com\/|pixel\.wp\.com\/|feeds\.feedburner\.com\/~r\/)/i;

/** An image nobody can see: declared 0 or 1 pixel wide or high, or served by a tracker. */
export function isPixelImage(img: Element): boolean {
  const tiny = (name: string) => /^\s*[01](?:px)?\s*$/.test(img.getAttribute(name) ?? '');
  return tiny('width') || tiny('height') || TRACKER_HOST.test(img.getAttribute('src')?.trim() ?? '');
}
