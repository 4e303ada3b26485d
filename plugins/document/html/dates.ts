/**
 * Publication dates to ISO 8601. Full timestamps become UTC (`2024-03-05T14:30:00.000Z`), as
 * every timestamp Trawl returns; a bare date stays a date (`2024-03-05`) rather than gaining an
 * invented midnight. A timestamp without a zone is read as UTC so the result does not depend on
 * the server's time zone.
 */

const DATE_ONLY = /^(\d{4})-?(\d{2})-?(\d{2})$/;
const ISO_DATETIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const YEAR = /\b(\d{4})\b/;
const HAS_TIME = /\d{1,2}:\d{2}/;
const HAS_ZONE = /\b(?:GMT|UTC|Z)\b|[+-]\d{2}:?\d{2}\s*$|\b[ECMP][SD]T\b/i;

export function normaliseDate(value: string | null | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  const date = DATE_ONLY.exec(text);
  if (date) return calendarDate(Number(date[1]), Number(date[2]), Number(date[3]));
  const iso = ISO_DATETIME.exec(text);
  if (iso) return timestamp(`${iso[1]}T${iso[2]!.replace(',', '.')}${zone(iso[3])}`);
  return freeForm(text);
}

/**
 * "March 5, 2024", "Tue, 05 Mar 2024 10:00:00 GMT" and the like, as the JS date parser reads
 * them. That parser guesses wildly ("not a date 12" is 2001-12-01), so the text must name a
 * four-digit year and the result must fall in it.
 */
function freeForm(text: string): string | null {
  const year = YEAR.exec(text)?.[1];
  if (!year) return null;
  if (!HAS_TIME.test(text)) {
    const local = new Date(text);
    if (Number.isNaN(local.getTime()) || local.getFullYear() !== Number(year)) return null;
    return calendarDate(local.getFullYear(), local.getMonth() + 1, local.getDate());
  }
  const iso = timestamp(HAS_ZONE.test(text) ? text : `${text} UTC`) ?? timestamp(text);
  // A zone shift may cross New Year, so the UTC year may be one off.
  return iso && Math.abs(Number(iso.slice(0, 4)) - Number(year)) <= 1 ? iso : null;
}

function zone(raw: string | undefined): string {
  if (!raw || raw.toUpperCase() === 'Z') return 'Z';
  const digits = raw.slice(1).replace(':', '').padEnd(4, '0');
  return `${raw[0]}${digits.slice(0, 2)}:${digits.slice(2, 4)}`;
}

function timestamp(text: string): string | null {
  const parsed = new Date(text);
  const year = parsed.getUTCFullYear();
  return Number.isNaN(parsed.getTime()) || year < 1000 || year > 9999 ? null : parsed.toISOString();
}

function calendarDate(year: number, month: number, day: number): string | null {
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (year < 1000 || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
