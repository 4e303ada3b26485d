/**
 * The internal search request (camelCase; wire formats parse into it). Country and language are
 * two-letter codes checked against the ICU region and language lists Bun ships, so `xx` is a 400
 * rather than a provider error later; both are kept lower case and each provider spells them its
 * own way.
 */
import { z } from 'zod';
import { coreRequestFields, type ScrapeRequest } from '../../model/request.ts';

export const SEARCH_DEFAULT_RESULTS = 5;
export const SEARCH_MAX_RESULTS = 50;
/** Brave's documented limit, and well past what any engine makes use of. */
export const SEARCH_MAX_QUERY_CHARS = 400;

const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const languages = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
/** Codes ICU names that are not countries. */
const NOT_COUNTRIES = new Set(['eu', 'ez', 'un', 'zz', 'qo']);

export const countryCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code (ISO 3166-1 alpha-2, e.g. "us")')
  .transform((value, ctx) => {
    // `uk` is what people write for the United Kingdom; ISO says `gb`.
    const code = value.toLowerCase() === 'uk' ? 'gb' : value.toLowerCase();
    if (!NOT_COUNTRIES.has(code) && regions.of(code.toUpperCase())) return code;
    ctx.addIssue({ code: 'custom', message: `unknown country code "${value}" (ISO 3166-1 alpha-2, e.g. "us")` });
    return z.NEVER;
  });

export const languageCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, 'must be a two-letter language code (ISO 639-1, e.g. "en")')
  .transform((value, ctx) => {
    const code = value.toLowerCase();
    if (languages.of(code)) return code;
    ctx.addIssue({ code: 'custom', message: `unknown language code "${value}" (ISO 639-1, e.g. "en")` });
    return z.NEVER;
  });

export const searchRequestFields = {
  query: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(SEARCH_MAX_QUERY_CHARS, `at most ${SEARCH_MAX_QUERY_CHARS} characters`)
    .describe('What to search the web for, as you would type it into a search engine.'),
  numResults: z
    .number()
    .int()
    .min(1)
    .max(SEARCH_MAX_RESULTS)
    .default(SEARCH_DEFAULT_RESULTS)
    .describe(`Results wanted (1–${SEARCH_MAX_RESULTS}); a provider may find fewer.`),
  scrape: z
    .boolean()
    .default(true)
    .describe('Scrape every result page in parallel (the same pipeline as /v1/scrape) and add its formats and metadata.'),
  formats: coreRequestFields.formats.describe('The formats each result page is scraped into, as /v1/scrape. Ignored without `scrape`.'),
  country: countryCode.optional().describe('Two-letter country code (ISO 3166-1 alpha-2) the results should come from.'),
  lang: languageCode.optional().describe('Two-letter language code (ISO 639-1) of the results.'),
  noCache: z.boolean().default(false).describe('Ask the providers and fetch every result page afresh instead of answering from the cache.'),
};

export const searchRequestSchema = z.strictObject(searchRequestFields);

export type SearchRequest = z.output<typeof searchRequestSchema> & {
  /**
   * More scrape options for every result page (wire formats whose search bodies carry a whole
   * set, such as /v2's `scrapeOptions`); checked like a scrape's before any provider is asked.
   */
  scrapeOptions?: Partial<Omit<ScrapeRequest, 'url' | 'formats'>>;
};
