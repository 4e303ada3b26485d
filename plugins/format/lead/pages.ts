/**
 * The pages of a site most likely to hold company and contact details, found by the page's own
 * links: about, contact, imprint (the legal notice many countries require, with address and
 * register) and team pages, by path and link text in the languages sites are commonly written in.
 */
import { parseHttpUrl } from '../../../core/kit.ts';
import type { LeadPageKind } from '../../../core/kit.ts';

// A whole path segment or link text (words joined by dashes) names the page; a blog post about the team does not.
const KINDS: ReadonlyArray<[LeadPageKind, RegExp]> = [
  ['contact', /^(?:contact(?:-?us|ez-nous|o)?|kontakt(?:e)?|contatti|contato|get-in-touch|reach-us|write-to-us)$/],
  ['imprint', /^(?:imprint|impressum|legal-?notice|mentions-legales|aviso-legal|colofon|site-?notice|legal)$/],
  [
    'about',
    /^(?:about(?:-?us)?|ueber-uns|uber-uns|über-uns|a-propos|à-propos|qui-sommes-nous|chi-siamo|sobre(?:-nos(?:otros)?)?|over-ons|who-we-are|our-story|unternehmen|company|firma)$/,
  ],
  ['team', /^(?:team|our-team|unser-team|people|leadership|management|equipe|équipe|mitarbeiter)$/],
];

const kindOf = (name: string) => KINDS.find(([, pattern]) => pattern.test(name))?.[0];

const sameSite = (a: URL, b: URL) => a.hostname.replace(/^www\./, '') === b.hostname.replace(/^www\./, '');

/** One link per kind, the shortest path that matches (a site's main about page, not a sub-page of it). */
export function likelyPages(dom: Document, pageUrl: string, base: string): Array<{ kind: LeadPageKind; url: string }> {
  const page = parseHttpUrl(pageUrl);
  if (!page) return [];
  const best = new Map<LeadPageKind, URL>();
  for (const a of dom.querySelectorAll('a[href]')) {
    const url = parseHttpUrl(a.getAttribute('href'), base);
    if (!url || !sameSite(url, page) || url.pathname === page.pathname) continue;
    let path = url.pathname.toLowerCase();
    try {
      path = decodeURIComponent(path);
    } catch {
      /* kept as written */
    }
    const segment =
      path
        .split('/')
        .filter(Boolean)
        .at(-1)
        ?.replace(/\.(?:html?|php|aspx?)$/, '') ?? '';
    const text = (a.textContent ?? '').trim().toLowerCase().replace(/\s+/g, '-').slice(0, 40);
    const kind = kindOf(segment) ?? kindOf(text);
    if (!kind) continue;
    const current = best.get(kind);
    if (!current || url.pathname.length < current.pathname.length) best.set(kind, url);
  }
  return KINDS.filter(([kind]) => best.has(kind)).map(([kind]) => ({ kind, url: best.get(kind)!.href }));
}
