/**
 * The one-call commands about a site: `map` (POST /v1/map: one URL a line, or JSON), `brand`
 * (POST /v1/brand) and `endpoints` (POST /v1/endpoints), answered as the API answers them (JSON).
 */
import { apiCommand, defined, integer, withApi, type ApiFlags } from '../command.ts';
import { emit, json } from '../output.ts';

type OutFlags = ApiFlags & { out?: string; json?: boolean; cache: boolean };

export const mapCommand = () =>
  apiCommand('map', 'List the URLs of a site (sitemaps, feeds and links), one a line')
    .argument('<url>', "the site's start page")
    .option('--search <words>', 'order the links by relevance to these words')
    .option('--limit <n>', 'at most this many links', integer)
    .option('--subdomains', 'include links to other hosts of the same domain')
    .option('--sitemap <mode>', 'include (default), skip or only')
    .option('--json', 'print the whole answer (titles, dates, warnings) as JSON')
    .option('-o, --out <file>', 'write to a file instead of stdout')
    .addHelpText('after', '\nExample:\n  bun run cli map https://example.com --limit 100 > urls.txt')
    .action((url: string, flags: Omit<OutFlags, 'cache'> & { search?: string; limit?: number; subdomains?: boolean; sitemap?: string }) =>
      withApi(flags, async (api) => {
        const body = defined({
          url,
          search: flags.search,
          limit: flags.limit,
          include_subdomains: flags.subdomains,
          sitemap: flags.sitemap,
        });
        const answer = await api.call<{ links: Array<{ url: string }>; warnings?: string[] }>('POST', '/v1/map', body, {
          search: '--search',
          limit: '--limit',
          sitemap: '--sitemap',
        });
        for (const warning of answer.warnings ?? []) if (!flags.json) process.stderr.write(`warning: ${warning}\n`);
        emit(flags.json ? json(answer) : answer.links.map((link) => link.url).join('\n'), flags.out);
      }),
    );

export const brandCommand = () =>
  apiCommand('brand', "Read a site's brand: name, logo, colours, fonts (JSON)")
    .argument('<url>', 'the site')
    .option('--no-cache', 'fetch afresh')
    .option('-o, --out <file>', 'write to a file instead of stdout')
    .addHelpText('after', '\nExample:\n  bun run cli brand https://example.com')
    .action((url: string, flags: OutFlags) =>
      withApi(flags, async (api) =>
        emit(json(await api.call('POST', '/v1/brand', defined({ url, no_cache: flags.cache ? undefined : true }))), flags.out),
      ),
    );

export const endpointsCommand = () =>
  apiCommand('endpoints', "Find the API endpoints a page's JavaScript calls (JSON)")
    .argument('<url>', 'the page')
    .option('--third-party', 'also endpoints on other domains')
    .option('--max-bundles <n>', 'script bundles to download at most', integer)
    .option('-o, --out <file>', 'write to a file instead of stdout')
    .addHelpText('after', '\nExample:\n  bun run cli endpoints https://example.com --third-party')
    .action((url: string, flags: Omit<OutFlags, 'cache'> & { thirdParty?: boolean; maxBundles?: number }) =>
      withApi(flags, async (api) => {
        const body = defined({ url, include_third_party: flags.thirdParty, max_bundles: flags.maxBundles });
        emit(json(await api.call('POST', '/v1/endpoints', body, { max_bundles: '--max-bundles' })), flags.out);
      }),
    );
