/**
 * `bun run cli search "query" [--num N] [--no-scrape] [--format F]… [--country CC] [--lang LL]
 * [--no-cache]`: the same search as POST /v1/search, without a server, printed as the /v1 response
 * (JSON). The flags are parsed straight into the internal search request, checked by the same
 * schema as every wire format; exit 2 for bad input, 1 when the search fails (no provider
 * configured, every provider failed), with the reason on stderr.
 */
import { TrawlError } from '../core/errors.ts';
import { SearchTokens } from '../core/features/search/index.ts';
import { searchRequestSchema } from '../core/features/search/request.ts';
import { describeZodError } from '../core/validation.ts';
import { bootTrawl } from '../server/boot.ts';
import { presentSearch } from '../server/wire/v1/present.ts';
import { parseOneArgCommand } from './flags.ts';

export const SEARCH_USAGE = `Usage: bun run cli search "<query>" [options]
  --num, -n N      results wanted (default 5, at most 50)
  --no-scrape      list the results without scraping their pages
  --format, -f F   formats each page is scraped into: markdown (default), text, … (repeatable)
  --country CC     two-letter country code the results should come from
  --lang LL        two-letter language code of the results
  --no-cache       ask the providers and fetch the pages afresh`;

/** Messages name the flag that set a field. */
const FLAGS: Readonly<Record<string, string>> = { numResults: '--num', scrape: '--no-scrape', formats: '--format', country: '--country', lang: '--lang', noCache: '--no-cache' };

export async function searchMain(argv: string[]): Promise<number> {
  const parsed = parseOneArgCommand(argv, {
    num: { type: 'string', short: 'n' },
    'no-scrape': { type: 'boolean', default: false },
    format: { type: 'string', short: 'f', multiple: true },
    country: { type: 'string' },
    lang: { type: 'string' },
    'no-cache': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  }, SEARCH_USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values, arg } = parsed;
  const input = {
    query: arg,
    ...(values.num !== undefined ? { numResults: /^\d+$/.test(values.num) ? Number(values.num) : values.num } : {}),
    scrape: !values['no-scrape'],
    ...(values.format ? { formats: values.format } : {}),
    ...(values.country !== undefined ? { country: values.country } : {}),
    ...(values.lang !== undefined ? { lang: values.lang } : {}),
    noCache: values['no-cache'],
  };
  const request = searchRequestSchema.safeParse(input);
  if (!request.success) {
    console.error(describeZodError(request.error, input, (field) => FLAGS[field] ?? field));
    return 2;
  }
  const trawl = await bootTrawl({ overrides: { log: { level: process.env.TRAWL_LOG_LEVEL?.trim() || 'warn' } } });
  try {
    const outcome = await trawl.container.resolve(SearchTokens.Service).search(request.data, 'default');
    console.log(JSON.stringify(presentSearch(outcome), null, 2));
    return 0;
  } catch (err) {
    if (err instanceof TrawlError && err.status === 400) {
      console.error(err.message);
      return 2;
    }
    console.error(err instanceof TrawlError ? err.message : `Unexpected error: ${(err as Error).message}`);
    return 1;
  } finally {
    await trawl.shutdown();
  }
}
