/**
 * brand format: what a page as served says about its brand — names, logo candidates (structured
 * data, the header image marked as the logo, touch icons), icons, theme colours, the manifest and
 * stylesheet addresses, the inline CSS, web-font families and social profiles. POST /v1/brand reads
 * a page through this format and makes the profile from it (the brand feature).
 */
import { absoluteUrl, baseHref, baseUrlFrom, definePlugin, isHttpUrl } from '../../../core/kit.ts';
import type { BrandFacts, PageDocument } from '../../../core/kit.ts';
import { servedPage } from '../shared/served.ts';
import { organizationsOf } from '../shared/organization.ts';
import { socialsByNetwork } from '../shared/socials.ts';
import { pageLogos } from '../shared/logos.ts';

const MAX_STYLESHEETS = 10;
const MAX_INLINE_CSS = 256 * 1024;
const MAX_ICONS = 10;
const WEB_FONTS = /^https?:\/\/(?:fonts\.googleapis\.com|fonts\.bunny\.net|use\.typekit\.net|fonts\.cdnfonts\.com)\//;

const content = (dom: Document, selector: string) => dom.querySelector(selector)?.getAttribute('content')?.trim() || null;

/** `family=Inter:wght@400;700&family=Playfair+Display` → Inter, Playfair Display. */
function webFontFamilies(hrefs: string[]): string[] {
  const families: string[] = [];
  for (const href of hrefs) {
    let url: URL;
    try {
      url = new URL(href);
    } catch {
      continue;
    }
    for (const value of url.searchParams.getAll('family')) {
      for (const family of value.split('|')) families.push(family.split(':')[0]!.replace(/\+/g, ' ').trim());
    }
  }
  return [...new Set(families.filter(Boolean))];
}

export function brandFacts(doc: PageDocument): BrandFacts {
  const dom = servedPage(doc);
  const empty: BrandFacts = {
    names: [],
    logos: [],
    icons: [],
    themes: [],
    scheme: null,
    manifest: null,
    stylesheets: [],
    css: '',
    fonts: [],
    image: null,
    socials: {},
  };
  if (!dom) return empty;
  const base = baseUrlFrom(baseHref(dom), doc.baseUrl);
  const href = (el: Element | null) => {
    const url = absoluteUrl(el?.getAttribute('href'), base);
    return url && isHttpUrl(url) ? url : null;
  };
  const organizations = organizationsOf(dom, base);
  const names: BrandFacts['names'] = [];
  const addName = (value: string | null | undefined, source: string) => {
    if (value?.trim()) names.push({ value: value.trim(), source });
  };
  for (const o of organizations) addName(o.name, 'json-ld');
  addName(content(dom, 'meta[property="og:site_name"]'), 'og:site_name');
  addName(content(dom, 'meta[name="application-name"]'), 'application-name');
  addName(dom.title, 'title');

  const structuredLogos = organizations
    .map((o) => o.logo)
    .filter((u): u is string => !!u)
    .map((url) => ({ url, source: 'json-ld' }));
  const links = [...dom.querySelectorAll('link[href]')];
  const rels = (el: Element) => (el.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
  let css = '';
  for (const style of dom.querySelectorAll('style')) {
    if (css.length >= MAX_INLINE_CSS) break;
    css += `${style.textContent ?? ''}\n`;
  }
  const stylesheets = links
    .filter((l) => rels(l).includes('stylesheet') && !rels(l).includes('alternate'))
    .map(href)
    .filter((u): u is string => !!u);
  return {
    names,
    logos: [...structuredLogos, ...pageLogos(dom, base)],
    icons: links
      .filter((l) => rels(l).includes('icon'))
      .map(href)
      .filter((u): u is string => !!u)
      .slice(0, MAX_ICONS),
    themes: [...dom.querySelectorAll('meta[name="theme-color" i][content]')].map((m) => ({
      color: m.getAttribute('content')!.trim(),
      ...(m.getAttribute('media') ? { media: m.getAttribute('media')! } : {}),
    })),
    scheme: content(dom, 'meta[name="color-scheme" i]'),
    manifest: href(links.find((l) => rels(l).includes('manifest')) ?? null),
    // A web-font service's stylesheet only declares its fonts, which its address already names.
    stylesheets: stylesheets.filter((u) => !WEB_FONTS.test(u)).slice(0, MAX_STYLESHEETS),
    css: css.slice(0, MAX_INLINE_CSS),
    fonts: webFontFamilies(links.map(href).filter((u): u is string => !!u && WEB_FONTS.test(u))),
    image: absoluteUrl(content(dom, 'meta[property="og:image"]') ?? content(dom, 'meta[name="twitter:image"]'), base),
    socials: socialsByNetwork([
      ...organizations.flatMap((o) => o.profiles),
      ...[...dom.querySelectorAll('a[href]')].map((a) => a.getAttribute('href') ?? ''),
    ]),
  };
}

export const brandFormat = definePlugin({
  kind: 'format',
  name: 'brand',
  description:
    'Brand facts of the page as served: names, logo candidates, icons, theme colours, manifest and stylesheet addresses, inline CSS, web-font families, social profiles.',
  provides: ['format:brand'],
  setup: () => ({ render: brandFacts }),
});
