/**
 * lead format: what one page says about the company behind it, read from the page as served
 * (navigation and footers are where contact details live, so cleaning and main content must not
 * hide them): organisations in JSON-LD and microdata, e-mail addresses (plain, `mailto:`,
 * obfuscated, Cloudflare-protected), phone numbers in E.164, social profiles by network, the
 * header logo, the first `<address>`, and links to the site's about, contact, imprint and team
 * pages. POST /v1/lead reads a site through this format, page by page, and merges the pages.
 */
import { baseHref, baseUrlFrom, definePlugin } from '../../../core/kit.ts';
import type { LeadFacts, PageDocument } from '../../../core/kit.ts';
import { servedPage } from '../shared/served.ts';
import { organizationsOf } from '../shared/organization.ts';
import { socialsByNetwork } from '../shared/socials.ts';
import { pageLogos } from '../shared/logos.ts';
import { likelyPages } from './pages.ts';

const MAX_ADDRESS = 300;

// The phone metadata costs every content worker tens of milliseconds at start: loaded when a page first asks for leads.
let contacts: Promise<typeof import('./contacts.ts')> | undefined;

export async function leadFacts(doc: PageDocument): Promise<LeadFacts> {
  const { defaultCountry, findEmails, findPhones, pageText } = await (contacts ??= import('./contacts.ts'));
  const dom = servedPage(doc);
  const empty: LeadFacts = { organizations: [], emails: [], phones: [], socials: {}, pages: [], logo: null, address: null, country: null };
  if (!dom) return empty;
  const base = baseUrlFrom(baseHref(dom), doc.baseUrl);
  const country = defaultCountry(doc.metadata.language, new URL(doc.baseUrl).hostname);
  const text = pageText(dom.body);
  const organizations = organizationsOf(dom, base);
  const links = [...dom.querySelectorAll('a[href]')].map((a) => a.getAttribute('href') ?? '');
  const address = dom.querySelector('address')?.textContent?.replace(/\s+/g, ' ').trim().slice(0, MAX_ADDRESS) || null;
  return {
    organizations,
    emails: findEmails(
      dom,
      text,
      organizations.flatMap((o) => o.emails),
    ),
    phones: findPhones(
      dom,
      text,
      country,
      organizations.flatMap((o) => o.phones),
    ),
    socials: socialsByNetwork([...organizations.flatMap((o) => o.profiles), ...links]),
    pages: likelyPages(dom, doc.baseUrl, base),
    logo: pageLogos(dom, base)[0]?.url ?? null,
    address,
    country: country ?? null,
  };
}

export const leadFormat = definePlugin({
  kind: 'format',
  name: 'lead',
  description:
    'Company facts of the page as served: organisations in JSON-LD and microdata, e-mails (obfuscated ones decoded), E.164 phones, social profiles, logo, address, and links to about/contact/imprint/team pages.',
  provides: ['format:lead'],
  setup: () => ({ render: leadFacts }),
});
