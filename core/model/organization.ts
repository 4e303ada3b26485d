/**
 * What the `lead` format reads from one page (the organisation in structured data, contacts,
 * profiles, links to likely pages), as the plugin hands it to the lead feature, which merges the
 * pages of a site into one lead. Shapes only: the reading is the plugin's.
 */

export interface PostalAddress {
  street: string | null;
  postcode: string | null;
  locality: string | null;
  region: string | null;
  country: string | null;
  /** The whole address on one line, as it would be written. */
  text: string;
}

export interface Organization {
  name: string | null;
  description: string | null;
  logo: string | null;
  /** The specific type when it says what the business does (`Restaurant`, `Legal Service`), or a stated industry. */
  industry: string | null;
  founded: string | null;
  /** A count, or a range as the page states it ("51-200"). */
  employees: number | string | null;
  address: PostalAddress | null;
  emails: string[];
  phones: string[];
  /** Profile URLs the organisation names as its own (`sameAs`). */
  profiles: string[];
}

export type LeadPageKind = 'about' | 'contact' | 'imprint' | 'team';

/** The `lead` format's output for one page. */
export interface LeadFacts {
  organizations: Organization[];
  emails: string[];
  /** E.164. */
  phones: string[];
  /** Profile URL by network (`linkedin`, `x`, `facebook`, …). */
  socials: Record<string, string>;
  /** Links to the pages that usually hold company details, one per kind. */
  pages: Array<{ kind: LeadPageKind; url: string }>;
  logo: string | null;
  /** The first `<address>` element's text. */
  address: string | null;
  /** ISO 3166 country national numbers were read in (from the page's language and domain), if any. */
  country: string | null;
}
