/**
 * The commands that read pages for an answer: `search` (POST /v1/search), `extract`
 * (POST /v1/extract, with `--schema file.json`) and `summarize` (POST /v1/summarize: the summary,
 * or the whole answer with `--json`). Search and extract print the /v1 answer as JSON.
 */
import { readFileSync } from 'node:fs';
import { apiCommand, collect, defined, integer, withApi, type ApiFlags } from '../command.ts';
import { CliError } from '../errors.ts';
import { emit, json } from '../output.ts';

type Flags = ApiFlags & { out?: string; cache: boolean; all?: boolean };

const noCache = (flags: { cache: boolean }) => (flags.cache ? undefined : true);

export const searchCommand = () =>
  apiCommand('search', 'Search the web and scrape the results (JSON)')
    .argument('<query>', 'what to search for')
    .option('-n, --num <n>', 'results wanted (default 5, at most 50)', integer)
    .option('--no-scrape', 'list the results without scraping their pages')
    .option('-f, --format <format>', 'formats each page is scraped into (repeatable)', collect, [])
    .option('--country <cc>', 'two-letter country code the results should come from')
    .option('--lang <ll>', 'two-letter language code of the results')
    .option('--no-cache', 'ask the providers and fetch the pages afresh')
    .option('-o, --out <file>', 'write to a file instead of stdout')
    .addHelpText('after', '\nExample:\n  bun run cli search "tide tables" --num 3 --no-scrape')
    .action((query: string, flags: Flags & { num?: number; scrape: boolean; format: string[]; country?: string; lang?: string }) =>
      withApi(flags, async (api) => {
        const body = defined({
          query,
          num_results: flags.num,
          scrape: flags.scrape,
          formats: flags.format,
          country: flags.country,
          lang: flags.lang,
          no_cache: noCache(flags),
        });
        emit(
          json(
            await api.call('POST', '/v1/search', body, {
              num_results: '--num',
              scrape: '--no-scrape',
              formats: '--format',
              country: '--country',
              lang: '--lang',
            }),
          ),
          flags.out,
        );
      }),
    );

function schemaFile(file: string | undefined): unknown {
  if (file === undefined) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new CliError(`--schema ${file}: ${(err as Error).message}`, 2);
  }
}

export const extractCommand = () =>
  apiCommand('extract', 'Extract structured data from a page with a language model (JSON)')
    .argument('<url>', 'the page')
    .option('-p, --prompt <text>', 'what to extract; without --schema a schema is made from it')
    .option('--schema <file>', 'a JSON Schema file the data must match')
    .option('--all', 'the whole page, not only its main content')
    .option('--no-cache', 'fetch the page afresh')
    .option('-o, --out <file>', 'write to a file instead of stdout')
    .addHelpText('after', '\nExample:\n  bun run cli extract https://example.com/product --prompt "name and price"')
    .action((url: string, flags: Flags & { prompt?: string; schema?: string }) =>
      withApi(flags, async (api) => {
        const body = defined({
          url,
          prompt: flags.prompt,
          schema: schemaFile(flags.schema),
          only_main_content: !flags.all,
          no_cache: noCache(flags),
        });
        emit(
          json(
            await api.call('POST', '/v1/extract', body, {
              prompt: '--prompt',
              schema: '--schema',
              only_main_content: '--all',
              no_cache: '--no-cache',
            }),
          ),
          flags.out,
        );
      }),
    );

export const summarizeCommand = () =>
  apiCommand('summarize', 'Summarize a page (with the configured model, else extractively)')
    .argument('<url>', 'the page')
    .option('--length <length>', 'short, medium (default) or long')
    .option('--mode <mode>', 'auto (default), llm or extractive')
    .option('-f, --format <format>', 'scrape formats to add to the --json answer (repeatable)', collect, [])
    .option('--all', 'the whole page, not only its main content')
    .option('--no-cache', 'fetch the page afresh')
    .option('--json', 'print the whole answer as JSON')
    .option('-o, --out <file>', 'write to a file instead of stdout')
    .addHelpText('after', '\nExample:\n  bun run cli summarize https://example.com/article --length short')
    .action((url: string, flags: Flags & { length?: string; mode?: string; format: string[]; json?: boolean }) =>
      withApi(flags, async (api) => {
        const body = defined({
          url,
          length: flags.length,
          mode: flags.mode,
          formats: flags.format,
          only_main_content: !flags.all,
          no_cache: noCache(flags),
        });
        const answer = await api.call<{ summary: string }>('POST', '/v1/summarize', body, {
          length: '--length',
          mode: '--mode',
          formats: '--format',
          only_main_content: '--all',
        });
        emit(flags.json ? json(answer) : answer.summary, flags.out);
      }),
    );
