/**
 * The pages of a site most likely to hold company and contact details, found by the page's own
 * links: about, contact, imprint (the legal notice many countries require, with address and
 * register) and team pages, by path and link text in the languages sites are commonly written in.
 */
import { parseHttpUrl } from '../../../core/net/url.ts';
import type { LeadPageKind } from '../../../core/model/organization.ts';


const KINDS: ReadonlyArray<[LeadPageKind, RegExp]> = [
  ['contact', /(?:^|[^a-z])(?:contact(?:-?us|ez-nous|o)?|kontakt|contatti|contato|get-in-touch|reach-us)(?:[^a-z]|$)/],
  ['imprint', /(?:^|[^a-z])(?:imprint|impressum|legal-?notice|mentions-legales|aviso-legal|colofon|site-?notice)(?:[^a-z]|$)/],
  ['about', /(?:^|[^a-z])(?:about(?:-?us)?|ueber-uns|uber-uns|über-uns|a-propos|qui-sommes-nous|chi-siamo|sobre(?:-nos)?|over-ons|who-we-are|our-story|unternehmen|company)(?:[^a-z]|$)/],
  ['team', /(?:^|[^a-z])(?:team|our-team|people|leadership|management|equipe|mitarbeiter)(?:[^a-z]|$)/],
];

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
    } catch { /* kept as written */ }
    const text = (a.textContent ?? '').trim().toLowerCase().replace(/\s+/g, '-').slice(0, 40);
    const kind = KINDS.find(([, pattern]) => pattern.test(path))?.[0] ?? KINDS.find(([, pattern]) => pattern.test(text))?.[0];
    if (!kind) continue;
    const current = best.get(kind);
    if (!current || url.pathname.length < current.pathname.length) best.set(kind, url);
  }
  return KINDS.filter(([kind]) => best.has(kind)).map(([kind]) => ({ kind, url: best.get(kind)!.href }));
}
