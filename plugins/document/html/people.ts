/**
 * Author names as they come out of markup: "By Jane Doe | March 5", "Written by: Jane", profile
 * URLs in `article:author`, bios in `.author` boxes. Turns them into a clean name or nothing.
 */

const LEAD_IN = /^(?:(?:written|posted|published|reported|story|words)\s+)?(?:by|von|par|por|door|di)\s*[:|]?\s+|^authors?\s*[:|]\s*/i;
/** A clock time or a year: the "name" is a date line. */
const DATE_LIKE = /\b\d{1,2}:\d{2}\b|\b(?:19|20)\d{2}\b/;
/** A byline usually continues with a date, a role or a share widget after one of these. */
const TRAILER = /\s+(?:[|•·—–]|-\s|on\s+(?:\w+\s+)?\d).*$/;
const MAX_NAME_WORDS = 10;
const MAX_NAME_LENGTH = 100;

export function cleanPersonName(raw: string | null | undefined): string | null {
  let name = raw?.replace(/\s+/g, ' ').trim() ?? '';
  if (!name || /^(?:https?:)?\/\//i.test(name) || name.startsWith('@')) return null;
  name = name
    .replace(LEAD_IN, '')
    .replace(TRAILER, '')
    .replace(/[\s,;:|•·—–-]+$/, '')
    .trim();
  if (!name || name.length > MAX_NAME_LENGTH || name.split(' ').length > MAX_NAME_WORDS) return null;
  if (!/\p{L}/u.test(name) || DATE_LIKE.test(name)) return null;
  return name;
}

/** Several authors become one string, in order, without repeats: "Jane Doe, John Roe". */
export function joinNames(names: ReadonlyArray<string | null | undefined>): string | null {
  const unique = [...new Set(names.map(cleanPersonName).filter((n): n is string => !!n))];
  return unique.length ? unique.join(', ') : null;
}
