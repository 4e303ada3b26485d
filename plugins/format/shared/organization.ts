/**
 * What a page says about the organisation behind it in structured data: JSON-LD nodes of an
 * organisation type first, microdata items of one second (the lead and brand formats read both
 * before falling back to page text). Values are as the page states them; URLs made absolute.
 */
import {
  absoluteUrl,
  asArray,
  dereferencer,
  isNode,
  itemValue,
  jsonLdNodesOf,
  ldImageUrl,
  ldString,
  scopeOf,
  typesOf,
} from '../../../core/kit.ts';
import type { JsonLdNode, Organization, PostalAddress } from '../../../core/kit.ts';

const ORGANIZATION_TYPE =
  /(?:Organization|Corporation|Business|Store|Restaurant|Service|Agency|Company|Institution|Office|Firm|Shop|Hotel|Clinic|Bank|School)$/;
const GENERIC_TYPES = new Set(['Organization', 'Corporation', 'LocalBusiness', 'OnlineBusiness', 'Company']);
/** Types that are never the company, whatever contact details they carry. */
const NOT_ORGANIZATION =
  /^(?:Person|Product|Offer|Brand|\w*Article|\w*Posting|\w*Page|WebSite|BreadcrumbList|ListItem|ItemList|\w*Object|Event|Review|Rating|AggregateRating|PostalAddress|GeoCoordinates|Place|Recipe|Question|Answer|HowTo|\w*Action|Thing|CreativeWork|ContactPoint|OpeningHoursSpecification)$/;

/**
 * schema.org has hundreds of business types (Dentist, Bakery, Plumber …): a type named like an
 * organisation is one, and so is any other type that is not plainly something else and carries
 * an organisation's details (address, telephone, e-mail, logo).
 */
const isOrganization = (types: string[], detailed: boolean) =>
  types.some((t) => ORGANIZATION_TYPE.test(t)) || (detailed && types.length > 0 && types.every((t) => !NOT_ORGANIZATION.test(t)));
const specificType = (types: string[]) => types.find((t) => !GENERIC_TYPES.has(t) && !NOT_ORGANIZATION.test(t)) ?? null;
const words = (type: string) => type.replace(/([a-z])([A-Z])/g, '$1 $2');
const unique = (values: Array<string | null>) => [...new Set(values.filter((v): v is string => !!v))];

function addressOf(parts: Omit<PostalAddress, 'text'> | null): PostalAddress | null {
  if (!parts) return null;
  const locality = [parts.postcode, parts.locality].filter(Boolean).join(' ');
  const text = [parts.street, locality, parts.region, parts.country].filter(Boolean).join(', ');
  return text ? { ...parts, text } : null;
}

function ldAddress(value: unknown): PostalAddress | null {
  const node = asArray(value)[0];
  if (typeof node === 'string')
    return ldString(node) ? { street: null, postcode: null, locality: null, region: null, country: null, text: ldString(node)! } : null;
  if (!isNode(node)) return null;
  const country = isNode(node.addressCountry) ? ldString(node.addressCountry.name) : ldString(node.addressCountry);
  return addressOf({
    street: ldString(node.streetAddress),
    postcode: ldString(node.postalCode),
    locality: ldString(node.addressLocality),
    region: ldString(node.addressRegion),
    country,
  });
}

function ldEmployees(value: unknown): number | string | null {
  const item = asArray(value)[0];
  if (typeof item === 'number' && Number.isFinite(item)) return item;
  if (typeof item === 'string') return /^\d+$/.test(item.trim()) ? Number(item.trim()) : ldString(item);
  if (!isNode(item)) return null;
  if (typeof item.value === 'number' || typeof item.value === 'string') return ldEmployees(item.value);
  const min = item.minValue,
    max = item.maxValue;
  return min !== undefined || max !== undefined ? `${min ?? ''}-${max ?? ''}` : null;
}

function fromJsonLd(node: JsonLdNode, deref: (value: unknown) => unknown, base: string): Organization {
  const types = typesOf(node);
  const strings = (key: string) => unique(asArray(node[key]).map(ldString));
  const logo = ldImageUrl(node.logo, deref) ?? ldImageUrl(node.image, deref);
  const location = deref(asArray(node.location)[0]);
  const industry = ldString(node.industry) ?? (specificType(types) ? words(specificType(types)!) : null);
  return {
    name: ldString(node.name) ?? ldString(node.legalName),
    description: ldString(node.description),
    logo: logo ? absoluteUrl(logo, base) : null,
    industry,
    founded: ldString(node.foundingDate),
    employees: ldEmployees(node.numberOfEmployees),
    address: ldAddress(deref(asArray(node.address)[0])) ?? (isNode(location) ? ldAddress(deref(asArray(location.address)[0])) : null),
    emails: strings('email'),
    phones: strings('telephone'),
    profiles: strings('sameAs')
      .map((u) => absoluteUrl(u, base))
      .filter((u): u is string => !!u),
  };
}

/** Properties of one microdata item (not of items nested in it), by name. */
function itemProperties(scope: Element): Map<string, Element[]> {
  const props = new Map<string, Element[]>();
  for (const el of scope.querySelectorAll('[itemprop]')) {
    if (scopeOf(el) !== scope) continue;
    for (const name of (el.getAttribute('itemprop') ?? '').split(/\s+/).filter(Boolean)) props.set(name, [...(props.get(name) ?? []), el]);
  }
  return props;
}

function fromMicrodata(scope: Element, base: string): Organization {
  const props = itemProperties(scope);
  const first = (name: string) => props.get(name)?.map(itemValue).find(Boolean) ?? null;
  const all = (name: string) => unique((props.get(name) ?? []).map(itemValue));
  const addressScope = props.get('address')?.find((el) => el.hasAttribute('itemscope'));
  let address: PostalAddress | null = null;
  if (addressScope) {
    const a = itemProperties(addressScope);
    const get = (name: string) => a.get(name)?.map(itemValue).find(Boolean) ?? null;
    address = addressOf({
      street: get('streetAddress'),
      postcode: get('postalCode'),
      locality: get('addressLocality'),
      region: get('addressRegion'),
      country: get('addressCountry'),
    });
  } else if (first('address')) {
    address = { street: null, postcode: null, locality: null, region: null, country: null, text: first('address')! };
  }
  const type = (scope.getAttribute('itemtype') ?? '')
    .trim()
    .split(/\s+/)
    .map((t) => t.replace(/^.*[/:#]/, ''));
  const logo = first('logo');
  const employees = first('numberOfEmployees');
  return {
    name: first('name') ?? first('legalName'),
    description: first('description'),
    logo: logo ? absoluteUrl(logo, base) : null,
    industry: specificType(type) ? words(specificType(type)!) : null,
    founded: first('foundingDate'),
    employees: employees && /^\d+$/.test(employees) ? Number(employees) : employees,
    address,
    emails: all('email').map((e) => e.replace(/^mailto:/i, '')),
    phones: all('telephone').map((p) => p.replace(/^tel:/i, '')),
    profiles: all('sameAs')
      .map((u) => absoluteUrl(u, base))
      .filter((u): u is string => !!u),
  };
}

/** Every organisation the page describes, JSON-LD ones first, in page order. */
export function organizationsOf(dom: Document, base: string): Organization[] {
  const nodes = jsonLdNodesOf(dom.querySelectorAll('script[type]'));
  const deref = dereferencer(nodes);
  const detailed = (n: JsonLdNode) => ['address', 'telephone', 'email', 'logo'].some((key) => n[key] !== undefined);
  const found = nodes.filter((n) => isOrganization(typesOf(n), detailed(n))).map((n) => fromJsonLd(n, deref, base));
  // A page's publisher is often written inside its Article or WebPage node rather than as a node of its own.
  const ids = new Set(nodes.map((n) => n['@id']).filter((id) => typeof id === 'string'));
  for (const node of nodes) {
    for (const key of ['publisher', 'provider', 'author']) {
      for (const value of asArray(node[key])) {
        const nested = isNode(value) && !(typeof value['@id'] === 'string' && ids.has(value['@id'])) && !nodes.includes(value);
        if (nested && isOrganization(typesOf(value), detailed(value))) found.push(fromJsonLd(value, deref, base));
      }
    }
  }
  for (const scope of dom.querySelectorAll('[itemscope][itemtype]')) {
    const types = (scope.getAttribute('itemtype') ?? '')
      .trim()
      .split(/\s+/)
      .map((t) => t.replace(/^.*[/:#]/, ''));
    const detailed = ['address', 'telephone', 'email', 'logo'].some((name) =>
      [...scope.querySelectorAll(`[itemprop~="${name}"]`)].some((el) => scopeOf(el) === scope),
    );
    if (isOrganization(types, detailed) && !scope.hasAttribute('itemprop')) found.push(fromMicrodata(scope, base));
  }
  return found;
}
