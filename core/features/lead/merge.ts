/**
 * One lead from the pages of a site: structured data (JSON-LD, then microdata) wins over what the
 * page text says, the given page wins over the pages found from it, and contact lists keep the
 * order they were found in, addresses at the site's own domain first. What no page said stays
 * null (or absent, for the optional fields) and is listed in `notFound`.
 */
import { getDomain } from 'tldts';
import type { LeadFacts, LeadPageKind, Organization, PostalAddress } from '../../model/organization.ts';
import type { Metadata } from '../../model/result.ts';
import type { LlmUsage } from '../../plugin.ts';

export interface LeadPage {
  url: string;
  kind: 'home' | LeadPageKind;
  /** Why the page could not be read. */
  error?: string;
}

export interface Lead {
  url: string;
  company: {
    name: string | null;
    description: string | null;
    logo: string | null;
    industry?: string;
    founded?: string;
    employees?: number | string;
    address: PostalAddress | null;
  };
  contacts: { emails: string[]; phones: string[] };
  socials: Record<string, string>;
  pages: LeadPage[];
  /** One line by the configured language model (absent without one). */
  summary?: string;
  /** Where `company.description` came from. */
  descriptionSource: 'structured' | 'meta' | 'extractive' | null;
  /** Fields no page had. */
  notFound: string[];
  model?: string;
  provider?: string;
  usage?: LlmUsage;
  warnings: string[];
}

/** A read page: what the `lead` format found, and the page's metadata. */
export interface ReadPage {
  page: LeadPage;
  facts: LeadFacts;
  metadata: Metadata;
}

const first = <T>(values: Array<T | null | undefined>): T | null => values.find((v) => v !== null && v !== undefined && v !== '') ?? null;

/** `Acme GmbH – Home` and `Home | Acme` become `Acme GmbH` and `Acme`: the part that is not a generic page word. */
export function nameFromTitle(title: string): string | null {
  const parts = title
    .split(/\s+[|–—·:-]\s+/)
    .map((p) => p.trim())
    .filter(Boolean);
  const named = parts.filter((p) => !/^(?:home|homepage|start|startseite|accueil|inicio|welcome|willkommen)$/i.test(p));
  return named.sort((a, b) => a.length - b.length)[0] ?? null;
}

function sameDomainFirst(emails: string[], host: string): string[] {
  const domain = getDomain(host) ?? host;
  const own = (email: string) => (getDomain(email.split('@')[1] ?? '') ?? '') === domain;
  return [...emails.filter(own), ...emails.filter((e) => !own(e))];
}

const uniqueCaseless = (values: string[]) => {
  const seen = new Set<string>();
  return values.filter((v) => !seen.has(v.toLowerCase()) && seen.add(v.toLowerCase()));
};

export function mergeLead(url: string, home: ReadPage, others: ReadPage[], failed: LeadPage[], extractive: () => string | null): Lead {
  const read = [home, ...others];
  const orgs: Organization[] = read.flatMap((r) => r.facts.organizations);
  const org = <K extends keyof Organization>(key: K) => first(orgs.map((o) => o[key]));
  const structuredAddress = orgs.map((o) => o.address).find((a) => a?.street || a?.locality) ?? org('address');
  const pageAddress = first(read.map((r) => r.facts.address));
  const metaDescription = home.metadata.description.trim() || null;
  const structuredDescription = org('description');
  const description = structuredDescription ?? metaDescription ?? extractive();

  const company: Lead['company'] = {
    name: org('name') ?? home.metadata.siteName ?? nameFromTitle(home.metadata.title),
    description,
    logo: org('logo') ?? first(read.map((r) => r.facts.logo)),
    address:
      structuredAddress ??
      (pageAddress ? { street: null, postcode: null, locality: null, region: null, country: null, text: pageAddress } : null),
  };
  const industry = org('industry');
  const founded = org('founded');
  const employees = org('employees');
  if (industry) company.industry = industry;
  if (founded) company.founded = founded;
  if (employees !== null) company.employees = employees;

  const socials: Record<string, string> = {};
  for (const r of read) for (const [network, profile] of Object.entries(r.facts.socials)) socials[network] ??= profile;
  const host = new URL(home.page.url).hostname;
  const lead: Lead = {
    url,
    company,
    contacts: {
      emails: sameDomainFirst(uniqueCaseless(read.flatMap((r) => r.facts.emails)), host),
      phones: [...new Set(read.flatMap((r) => r.facts.phones))],
    },
    socials,
    pages: [...read.map((r) => r.page), ...failed],
    descriptionSource: structuredDescription ? 'structured' : metaDescription ? 'meta' : description ? 'extractive' : null,
    notFound: [],
    warnings: [],
  };
  lead.notFound = missingFields(lead);
  return lead;
}

/** The fields a lead is expected to have that no page gave. */
export function missingFields(lead: Lead): string[] {
  const { company, contacts } = lead;
  const checks: Array<[string, boolean]> = [
    ['company.name', !!company.name],
    ['company.description', !!company.description],
    ['company.logo', !!company.logo],
    ['company.industry', !!company.industry],
    ['company.founded', !!company.founded],
    ['company.employees', company.employees !== undefined],
    ['company.address', !!company.address],
    ['contacts.emails', contacts.emails.length > 0],
    ['contacts.phones', contacts.phones.length > 0],
    ['socials', Object.keys(lead.socials).length > 0],
  ];
  return checks.filter(([, found]) => !found).map(([field]) => field);
}
