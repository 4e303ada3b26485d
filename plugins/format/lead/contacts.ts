/**
 * Contact details in a page: e-mail addresses from `mailto:` links, Cloudflare-protected links,
 * plain text and text written to fool harvesters (`name [at] example [dot] com`); phone numbers
 * from `tel:` links and text, normalised to E.164 by libphonenumber-js with a default country
 * taken from the page's language and domain (a national number means nothing without one). The
 * full metadata set (`/max`) validates by number ranges, so a postcode or register number in the
 * text is not taken for a phone number.
 */
import { findPhoneNumbersInText, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/** Text read for contacts at most: contact details sit in the first pages of any real page's text. */
const MAX_TEXT = 200_000;
const MAX_CONTACTS = 50;
/**
 * Text searched for phone numbers: its start and its end (where footers are). Measured here (loaded
 * machine): ordinary text about 1 ms per 1,000 characters, digit-dense text over 10 ms.
 */
const PHONE_HEAD = 20_000;
const PHONE_TAIL = 10_000;
const EMAIL =
  /[a-z0-9](?:[a-z0-9._%+-]{0,62}[a-z0-9_%+-])?@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?){0,6}\.[a-z]{2,24}(?![a-z0-9-])/gi;
const ONE_EMAIL = new RegExp(EMAIL.source, 'i');
/** `logo@2x.png` looks like an address. */
const FILE_SUFFIX = /\.(?:png|jpe?g|gif|svg|webp|avif|css|js)$/i;
const AT = /\s*(?:[[({<]\s*(?:at|@|ät)\s*[\])}>]|\s(?:AT|at)\s(?=[^\s@]+\s(?:DOT|dot)\s))\s*/g;
const DOT = /\s*(?:[[({<]\s*(?:dot|\.|punkt|point)\s*[\])}>]|\s(?:DOT|dot)\s)\s*/g;

/** Language → the country its numbers are most likely from when neither the page nor its domain says. */
const LANGUAGE_COUNTRY: Readonly<Record<string, CountryCode>> = {
  en: 'US',
  de: 'DE',
  fr: 'FR',
  it: 'IT',
  es: 'ES',
  nl: 'NL',
  pt: 'PT',
  pl: 'PL',
  sv: 'SE',
  da: 'DK',
  fi: 'FI',
  nb: 'NO',
  no: 'NO',
  cs: 'CZ',
  ja: 'JP',
  ko: 'KR',
  tr: 'TR',
  el: 'GR',
  hu: 'HU',
  ro: 'RO',
  uk: 'UA',
  he: 'IL',
};
const TLD_COUNTRY: Readonly<Record<string, CountryCode>> = { uk: 'GB' };

/** The page's region (`de-CH`), else its country-code domain (`.at`), else its language's usual country. */
export function defaultCountry(language: string | null | undefined, host: string): CountryCode | undefined {
  const [primary, region] = (language ?? '').split('-');
  if (region && isSupportedCountry(region.toUpperCase())) return region.toUpperCase() as CountryCode;
  const tld = host.split('.').at(-1)?.toLowerCase() ?? '';
  const byTld =
    TLD_COUNTRY[tld] ?? (tld.length === 2 && isSupportedCountry(tld.toUpperCase()) ? (tld.toUpperCase() as CountryCode) : undefined);
  return byTld ?? LANGUAGE_COUNTRY[primary?.toLowerCase() ?? ''];
}

/** Text of the page with a break between text nodes (so "info@acme.de" and "Imprint" do not run together). */
export function pageText(root: Element | null): string {
  if (!root) return '';
  const parts: string[] = [];
  let length = 0;
  const walk = (node: Node) => {
    for (let child = node.firstChild; child && length < MAX_TEXT; child = child.nextSibling) {
      if (child.nodeType === 3) {
        parts.push(child.textContent ?? '');
        length += parts.at(-1)!.length + 1;
      } else if (
        child.nodeType === 1 &&
        !['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'SVG'].includes((child as Element).tagName.toUpperCase())
      ) {
        walk(child);
      }
    }
  };
  walk(root);
  return parts.join('\n').slice(0, MAX_TEXT);
}

const cleanEmail = (email: string) => {
  const [local, domain] = email.trim().split('@');
  return local && domain ? `${local}@${domain.toLowerCase()}` : null;
};

/** Cloudflare's e-mail protection: hex bytes, the first the XOR key of the rest. */
export function decodeCfEmail(hex: string): string | null {
  if (!/^(?:[0-9a-f]{2}){2,128}$/i.test(hex)) return null;
  const bytes = hex.match(/../g)!.map((b) => parseInt(b, 16));
  const key = bytes[0]!;
  return String.fromCharCode(...bytes.slice(1).map((b) => b ^ key));
}

/** Addresses in order of appearance: links first (they are meant to be used), then text, then obfuscated text. */
export function findEmails(dom: Document, text: string, extra: readonly string[] = []): string[] {
  const found: string[] = [...extra];
  for (const a of dom.querySelectorAll('a[href^="mailto:" i]')) {
    let target = (a.getAttribute('href') ?? '').slice(7).split('?')[0] ?? '';
    try {
      target = decodeURIComponent(target);
    } catch {
      /* kept as written */
    }
    found.push(...target.split(','));
  }
  for (const el of dom.querySelectorAll('[data-cfemail]')) found.push(decodeCfEmail(el.getAttribute('data-cfemail') ?? '') ?? '');
  found.push(...(text.match(EMAIL) ?? []));
  found.push(...(text.replace(AT, '@').replace(DOT, '.').match(EMAIL) ?? []));
  const seen = new Set<string>();
  const emails: string[] = [];
  for (const raw of found) {
    const match = ONE_EMAIL.exec(raw);
    const email = match ? cleanEmail(match[0]) : null;
    if (!email || FILE_SUFFIX.test(email) || seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    emails.push(email);
    if (emails.length === MAX_CONTACTS) break;
  }
  return emails;
}

/** E.164 numbers in order of appearance: `tel:` links and stated numbers first, then numbers in the text. */
export function findPhones(dom: Document, text: string, country: CountryCode | undefined, extra: readonly string[] = []): string[] {
  const found: string[] = [];
  const add = (raw: string) => {
    const number = parsePhoneNumberFromString(raw, country);
    if (number?.isValid()) found.push(number.number);
  };
  extra.forEach(add);
  for (const a of dom.querySelectorAll('a[href^="tel:" i]')) {
    const href = a.getAttribute('href')!.slice(4);
    let raw = href;
    try {
      raw = decodeURIComponent(href);
    } catch {
      /* kept as written */
    }
    add(raw);
  }
  const searched = text.length <= PHONE_HEAD + PHONE_TAIL ? text : `${text.slice(0, PHONE_HEAD)}\n${text.slice(-PHONE_TAIL)}`;
  for (const match of findPhoneNumbersInText(searched, country)) found.push(match.number.number);
  return [...new Set(found)].slice(0, MAX_CONTACTS);
}
